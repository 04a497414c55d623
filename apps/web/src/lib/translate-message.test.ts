import {
  ACCESS_REQUEST_MESSAGES,
  AcceptInvitationInputSchema,
  AttachmentUploadSchema,
  accountLockedMessage,
  CreateDoctorInputSchema,
  CreatePatientInputSchema,
  DeclineAccessRequestInputSchema,
  INVITATION_MESSAGES,
  MESSAGES,
  PASSWORD_MESSAGES,
  PASSWORD_RESET_MESSAGES,
  PatientAccessRequestSchema,
  ProviderAccessRequestSchema,
  RequestPasswordResetInputSchema,
  ResetPasswordInputSchema,
  SignInInputSchema,
  tooManyRequestsMessage,
  TWO_FACTOR_MESSAGES,
  UpdatePatientInputSchema,
  validationFailedMessage,
  VideoNameSchema,
} from '@telehealth/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { i18n } from './i18n.ts';
import { labelKey, matchMessage, splitMessageList, translateMessage } from './translate-message.ts';

/**
 * The schemas behind the forms: the public ones (sign-in, both access requests, invitation and password reset)
 * and the signed-in app's (patient registration and edit, Add Provider, declining an access request).
 */
const FORM_SCHEMAS: Record<string, z.ZodObject> = {
  signIn: SignInInputSchema,
  provider: ProviderAccessRequestSchema,
  patient: PatientAccessRequestSchema,
  requestReset: RequestPasswordResetInputSchema,
  reset: ResetPasswordInputSchema,
  invitation: AcceptInvitationInputSchema,
  createPatient: CreatePatientInputSchema,
  updatePatient: UpdatePatientInputSchema,
  createDoctor: CreateDoctorInputSchema,
  declineAccessRequest: DeclineAccessRequestInputSchema,
  // A message attachment's file name, and the name a person gives for a video visit (a guest's too).
  attachmentUpload: AttachmentUploadSchema,
  videoName: z.object({ name: VideoNameSchema }),
};

/** Values that break each kind of rule: absence, blanks, lengths, markup, formats, unknown options, types. */
const BAD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  'x',
  'A1',
  '<b>x</b>',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'Ana\u202egnp.exe',
  'Ana\u0000',
  'Ana\ud800',
  'Ana 2',
  'x'.repeat(60),
  'x'.repeat(5000),
  `${'a'.repeat(260)}@example.org`,
  'not-an-email',
  'abc',
  '12-34-56-78-90',
  '123',
  '2026-02-30',
  '2999-01-01',
  '1800-01-01',
  '1234',
  'abcdefgh',
  'ABCDEFGH',
  'Abcdefgh',
  'Abcdefg1',
  'bogus',
  ['bogus'],
  42,
  -1,
  false,
];

/**
 * Every message the schemas of the forms produce for the bad values above, field by field. zod's own
 * wording for a value of the wrong type ("Invalid input: expected string, received number") is left out: the
 * forms always send the types the schemas expect, so only a hand-made request meets it.
 */
function schemaMessages(): Set<string> {
  const messages = new Set<string>();
  const add = (result: { error?: z.ZodError | undefined }) => {
    for (const issue of result.error?.issues ?? []) {
      if (!issue.message.startsWith('Invalid input')) messages.add(issue.message);
    }
  };
  for (const schema of Object.values(FORM_SCHEMAS)) {
    // A record's id comes from the page's address, never from something a person types.
    const base = 'id' in schema.shape ? { id: '11111111-1111-4111-8111-111111111111' } : {};
    add(schema.safeParse(base));
    for (const field of Object.keys(schema.shape).filter((name) => name !== 'id')) {
      for (const value of BAD_VALUES) add(schema.safeParse({ ...base, [field]: value }));
    }
  }
  // The reset's own rule: neither a link's token nor a code.
  add(ResetPasswordInputSchema.safeParse({ newPassword: 'Abcdefg1!' }));
  return messages;
}

/** The fixed messages and message functions of @telehealth/shared that the public pages can show. */
function constantMessages(): string[] {
  return [
    // Templates with parameters are reached through their functions below.
    ...Object.values(MESSAGES).filter((message) => !message.includes('{{')),
    ...Object.values(PASSWORD_MESSAGES),
    ...Object.values(PASSWORD_RESET_MESSAGES),
    ...Object.values(TWO_FACTOR_MESSAGES),
    INVITATION_MESSAGES.invalid,
    INVITATION_MESSAGES.expired,
    INVITATION_MESSAGES.used,
    INVITATION_MESSAGES.accepted,
    ACCESS_REQUEST_MESSAGES.received,
    ACCESS_REQUEST_MESSAGES.submitError,
    ACCESS_REQUEST_MESSAGES.consentRequired,
    ACCESS_REQUEST_MESSAGES.accountExists,
    ...[1, 2, 5, 59].flatMap((minutes) => [
      accountLockedMessage(minutes * 60_000),
      tooManyRequestsMessage(minutes * 60_000),
    ]),
    validationFailedMessage(['First name is required', 'Please enter a valid email address']),
  ];
}

function resourceKeys(lng: string, namespace: string, section: string): string[] {
  return Object.keys((i18n.getResource(lng, namespace, section) ?? {}) as Record<string, unknown>).sort();
}

beforeAll(async () => {
  await i18n.loadLanguages('es');
});

describe('translateMessage', () => {
  it('has a Spanish translation for every message the forms’ schemas can produce', () => {
    const messages = [...schemaMessages(), ...constantMessages()];
    // The battery reaches the rules it is meant to (a sample of each kind).
    expect(messages).toEqual(
      expect.arrayContaining([
        'Please choose a valid specialty',
        'Please choose valid features of interest',
        'First name can only contain letters, spaces, hyphens, and apostrophes',
        'Subspecialty must be less than 100 characters',
        'Date of birth must be in the past',
        'Please enter a valid ZIP code',
        PASSWORD_RESET_MESSAGES.codeOrLink,
        'City cannot start with a link such as javascript:',
        'File name contains invalid characters',
        'Name cannot contain < or >',
        'Please enter your name',
      ]),
    );
    const untranslated = messages.filter((message) => {
      const spanish = translateMessage(message, { lng: 'es' });
      return spanish === message || /\{\{|\}\}/.test(spanish);
    });
    expect(untranslated).toEqual([]);
    // Every label inside them is one the browser can translate.
    for (const message of messages) {
      const label = matchMessage(message)?.values['label'];
      if (label !== undefined) expect(labelKey(label), label).not.toBeNull();
    }
  });

  it('leaves no pattern unused: each one is a message the shared package can produce', () => {
    const used = new Set(
      [...schemaMessages(), ...constantMessages()].map((message) => matchMessage(message)?.key).filter(Boolean),
    );
    const all = [
      ...resourceKeys('en', 'shared', 'messages').map((key) => `shared:messages.${key.replace(/_(one|other)$/, '')}`),
      ...resourceKeys('en', 'errors', 'messages').map((key) => `errors:messages.${key.replace(/_(one|other)$/, '')}`),
    ];
    expect([...new Set(all)].filter((key) => !used.has(key))).toEqual([]);
  });

  it('translates the label inside a message, and uses the form’s own label when given', () => {
    expect(translateMessage('Medical license number is required', { lng: 'es' })).toBe(
      'El campo «Número de licencia médica» es obligatorio',
    );
    expect(translateMessage('Please choose a valid specialty', { lng: 'es' })).toBe(
      'Elija una opción válida en «Especialidad»',
    );
    expect(translateMessage('Phone number is required', { lng: 'es', label: 'Teléfono móvil' })).toBe(
      'El campo «Teléfono móvil» es obligatorio',
    );
  });

  it('carries the numbers over, with the right plural', () => {
    expect(translateMessage(PASSWORD_MESSAGES.tooShort, { lng: 'es' })).toBe(
      'La contraseña debe tener al menos 8 caracteres',
    );
    expect(translateMessage(tooManyRequestsMessage(60_000), { lng: 'es' })).toBe(
      'Demasiados intentos. Inténtelo de nuevo en 1 minuto.',
    );
    expect(translateMessage(accountLockedMessage(4 * 60_000), { lng: 'es' })).toMatch(/en 4 minutos\.$/);
  });

  it('translates lists of messages, including ones that contain commas', () => {
    const joined = 'First name can only contain letters, spaces, hyphens, and apostrophes, Email is required';
    expect(splitMessageList(joined)).toEqual([
      'First name can only contain letters, spaces, hyphens, and apostrophes',
      'Email is required',
    ]);
    expect(translateMessage(joined, { lng: 'es' })).toBe(
      'El campo «Nombre» solo puede contener letras, espacios, guiones y apóstrofos, El correo electrónico es obligatorio',
    );
    expect(translateMessage(validationFailedMessage(['Please enter a valid ZIP code']), { lng: 'es' })).toBe(
      'Error de validación: Ingrese un código postal válido',
    );
  });

  it('returns English and unknown messages exactly as they came', () => {
    expect(translateMessage('Please choose a valid specialty', { lng: 'en' })).toBe('Please choose a valid specialty');
    expect(translateMessage('Something the browser has never heard of', { lng: 'es' })).toBe(
      'Something the browser has never heard of',
    );
    // A known sentence around a label the schemas never use is not guessed at.
    expect(translateMessage('Favourite colour is required', { lng: 'es' })).toBe('Favourite colour is required');
  });
});
