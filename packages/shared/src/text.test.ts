import fc from 'fast-check';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  PATIENT_ACCESS_REQUEST_FREE_TEXT_FIELDS,
  PatientAccessRequestSchema,
  PROVIDER_ACCESS_REQUEST_FREE_TEXT_FIELDS,
  ProviderAccessRequestSchema,
} from './access-requests.ts';
import {
  CreatePatientInputSchema,
  PATIENT_FREE_TEXT_FIELDS,
  freeTextSchema,
  nameSchema,
  PatientFilterSchema,
  PhoneSchema,
  PolicyNumberSchema,
  shortTextSchema,
  ZipCodeSchema,
} from './patients.ts';
import { CreateDoctorInputSchema, PROVIDER_FREE_TEXT_FIELDS } from './providers.ts';
import { normalizeText, textProblem, textSchema } from './text.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

const HOSTILE_CHARACTERS = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u009f', '\ud800', '\udfff'];

describe('the one text rule', () => {
  it('normalises to NFC, so one name has one form', () => {
    const decomposed = 'Jose\u0301';
    expect(nameSchema('First name').parse(decomposed)).toBe('José');
    expect(freeTextSchema('Notes', 10).parse('cafe\u0301')).toBe('café');
  });

  it('refuses NUL, control characters and lone surrogates in every kind, with the field’s message', () => {
    const schemas = [
      nameSchema('First name'),
      shortTextSchema('City', 100),
      freeTextSchema('Allergies', 1000),
      textSchema({ label: 'Search', kind: 'search', max: 100 }),
    ];
    for (const schema of schemas) {
      for (const character of HOSTILE_CHARACTERS) {
        const result = schema.safeParse(`Ann${character}e`);
        expect(result.success, JSON.stringify(character)).toBe(false);
        expect(messages(result)[0]).toMatch(/contains invalid characters$/);
      }
    }
    expect(messages(PhoneSchema.safeParse('503555\u00000101'))).toEqual(['Please enter a valid phone number']);
    expect(messages(ZipCodeSchema.safeParse('97301\u0000'))).toEqual(['Please enter a valid ZIP code']);
    expect(messages(PolicyNumberSchema.safeParse('AB\u0000123'))).toEqual([
      'Policy number contains invalid characters',
    ]);
  });

  it('keeps line breaks and tabs in free text only', () => {
    expect(freeTextSchema('Medical history', 100).parse('  Asthma\r\n\tsince 2010\n\n- mild  ')).toBe(
      'Asthma\n\tsince 2010\n\n- mild',
    );
    expect(messages(shortTextSchema('City').safeParse('Salem\nOR'))).toEqual(['City contains invalid characters']);
    expect(messages(shortTextSchema('City').safeParse('Salem\tOR'))).toEqual(['City contains invalid characters']);
  });

  it('refuses < and > in short fields and keeps them, as typed, in free text', () => {
    expect(messages(shortTextSchema('Street address').safeParse('<img src=x onerror=alert(1)>'))).toEqual([
      'Street address cannot contain < or >',
    ]);
    expect(messages(nameSchema('Last name').safeParse('<scr<script>x</script>ipt>'))).toEqual([
      'Last name contains invalid characters',
    ]);
    const typed = 'dose < 5 mg; <b>not bold</b> <script>alert(1)</script>';
    expect(freeTextSchema('Current medications', 1000).parse(typed)).toBe(typed);
    expect(textSchema({ label: 'Search', kind: 'search', max: 100 }).parse(' <Lee> ')).toBe('<Lee>');
  });

  it('refuses a short field that starts with a link that runs code or opens local files, not text with a colon', () => {
    const city = shortTextSchema('City');
    for (const link of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' java script :alert(1)',
      'java\u200bscript:alert(1)',
      'vbscript:msgbox(1)',
      'livescript:x',
      'file:///etc/passwd',
      'FILE://server/share',
      'filesystem:http://x/y',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:,hello',
      'Data : image/svg+xml , x',
    ]) {
      expect(messages(city.safeParse(link)), link).toEqual(['City cannot start with a link such as javascript:']);
    }
    for (const text of [
      'Note: back door',
      '10:30',
      'Data: March',
      'St. Louis: North',
      'javajavascript:script:x',
      'https://example.com',
    ]) {
      expect(city.parse(text), text).toBe(text);
    }
    // Names keep the specification's message; free text and searches keep what was typed.
    expect(messages(nameSchema('Last name').safeParse('javascript:x'))).toEqual([
      'Last name contains invalid characters',
    ]);
    expect(freeTextSchema('Notes', 100).parse('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(textProblem('javascript:alert(1)', 'short', 50)).toBe('urlScheme');
  });

  it('refuses bidirectional overrides in short fields, keeps right-to-left letters', () => {
    expect(messages(shortTextSchema('City').safeParse('abc\u202Egpj.exe'))).toEqual([
      'City contains invalid characters',
    ]);
    expect(nameSchema('First name').parse('مريم')).toBe('مريم');
    expect(shortTextSchema('City').parse('תל אביב')).toBe('תל אביב');
  });

  it('accepts what names and addresses hold in any language', () => {
    for (const name of ["O'Brien", 'Anne-Marie', 'Nguyễn', 'Søren', 'Zoë', 'D’Angelo', '王秀英', 'Łukasz']) {
      expect(messages(nameSchema('Last name').safeParse(name)), name).toEqual([]);
    }
    for (const line of [
      'Calle 5 #12-34, Apt. 2B',
      '1600 Pennsylvania Ave. NW',
      'Rue de l’Église 3',
      'P.O. Box 12 (rear)',
    ]) {
      expect(messages(shortTextSchema('Street address').safeParse(line)), line).toEqual([]);
    }
  });

  it('limits every text, after normalising', () => {
    expect(messages(shortTextSchema('City', 5).safeParse('Salem!'))).toEqual(['City must be less than 5 characters']);
    expect(shortTextSchema('City', 5).parse('  Salem   ')).toBe('Salem');
    expect(messages(PatientFilterSchema.safeParse({ search: 'x'.repeat(101) }))).toEqual([
      'Search must be less than 100 characters',
    ]);
  });

  it('never lets a short field of any form hold markup, a control character or a lone surrogate', () => {
    const forms = [
      {
        schema: CreatePatientInputSchema,
        base: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', dateOfBirth: '1990-01-01' },
        short: ['firstName', 'lastName', 'street', 'city', 'state', 'emergencyContactName', 'insuranceProvider'],
      },
      {
        schema: PatientAccessRequestSchema,
        base: {
          firstName: 'Ann',
          lastName: 'Lee',
          email: 'ann@example.com',
          dateOfBirth: '1990-01-01',
          phone: '5035550101',
          reasonForInterest: 'Anxiety',
          consentToContact: true,
        },
        short: ['address', 'city', 'state', 'emergencyContactName', 'currentProvider', 'referringDoctor'],
      },
      {
        schema: ProviderAccessRequestSchema,
        base: {},
        short: ['medicalLicense', 'organizationName', 'practiceAddress', 'practiceCity', 'currentEMR'],
      },
    ] as const;
    const anyText = fc.string({ unit: 'binary', maxLength: 40 });
    for (const { schema, base, short } of forms) {
      fc.assert(
        fc.property(fc.constantFrom(...short), anyText, (field, value) => {
          const result = schema.safeParse({ ...base, [field]: value });
          if (!result.success) return;
          const stored = (result.data as Record<string, unknown>)[field];
          if (typeof stored !== 'string') return;
          // eslint-disable-next-line no-control-regex -- looking for control characters is the point
          expect(stored).not.toMatch(/[<>\u0000-\u001f\u007f-\u009f]/u);
          expect(stored.isWellFormed()).toBe(true);
          expect(stored).toBe(stored.normalize('NFC'));
        }),
        { seed: 11, numRuns: 300 },
      );
    }
  });

  it('finds the problem of a stored value without changing it', () => {
    expect(textProblem('Ann <b>', 'short', 50)).toBe('markup');
    expect(textProblem('Ann\u0000', 'free', 50)).toBe('invalidCharacters');
    expect(textProblem('Ann\n<b>', 'free', 50)).toBeNull();
    expect(normalizeText(' a \u00a0 b ', 'short')).toBe('a b');
  });
});

describe('which fields are free text', () => {
  // The lists say how stored values are checked (the stored-text review, the fuzz test); the schemas decide what
  // is accepted. Each field of each form is tried with a value that only free text accepts.
  const forms = [
    { schema: CreatePatientInputSchema, free: PATIENT_FREE_TEXT_FIELDS },
    { schema: PatientAccessRequestSchema, free: PATIENT_ACCESS_REQUEST_FREE_TEXT_FIELDS },
    { schema: ProviderAccessRequestSchema, free: PROVIDER_ACCESS_REQUEST_FREE_TEXT_FIELDS },
    { schema: CreateDoctorInputSchema, free: PROVIDER_FREE_TEXT_FIELDS },
  ];

  it.each(forms.map((form, index) => [index, form] as const))('form %i: the list matches the schema', (_i, form) => {
    for (const [field, schema] of Object.entries(form.schema.shape) as [string, z.ZodType][]) {
      const result = schema.safeParse('Line one <b>\nline two');
      // A field that turns text into something else (a number of years) is no text field.
      if (result.success && typeof result.data !== 'string') continue;
      expect(result.success, field).toBe((form.free as readonly string[]).includes(field));
    }
  });
});

describe('optional yes/no fields', () => {
  it('take null as "not given", and refuse anything but a boolean with a message', () => {
    const base = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', dateOfBirth: '1990-01-01' };
    expect(CreatePatientInputSchema.parse({ ...base, isActive: null }).isActive).toBeUndefined();
    expect(CreatePatientInputSchema.parse({ ...base, isActive: false }).isActive).toBe(false);
    expect(messages(CreatePatientInputSchema.safeParse({ ...base, isActive: 'yes' }))).toEqual([
      'Please choose yes or no',
    ]);
  });
});
