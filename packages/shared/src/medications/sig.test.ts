import { describe, expect, it } from 'vitest';
import type { LabelLanguage } from './drug-classes.ts';
import type { MedicationDose } from './sig.ts';
import {
  DOSE_UNIT_LABELS,
  DOSE_UNITS,
  FORM_LABELS,
  formatDoseAmount,
  formatSig,
  FREQUENCIES,
  FREQUENCY_LABELS,
  MEDICATION_FORMS,
  ROUTE_LABELS,
  ROUTES,
} from './sig.ts';

/** A dose: 50 mg by mouth once daily, scheduled, unless told otherwise. */
function dose(overrides: Partial<MedicationDose> = {}): MedicationDose {
  return { amount: 50, unit: 'mg', route: 'oral', frequency: 'once-daily', asNeeded: false, ...overrides };
}

describe('formatSig', () => {
  const CASES: [string, MedicationDose, LabelLanguage, string][] = [
    ['a scheduled dose', dose(), 'en', '50 mg by mouth once daily'],
    ['a scheduled dose', dose(), 'es', '50 mg por vía oral una vez al día'],
    [
      'as needed with a reason',
      dose({
        amount: 1,
        unit: 'tablet',
        route: 'sublingual',
        frequency: 'at-bedtime',
        asNeeded: true,
        asNeededReason: 'sleep',
      }),
      'en',
      '1 tablet under the tongue at bedtime as needed for sleep',
    ],
    [
      'as needed with a reason',
      dose({
        amount: 1,
        unit: 'tablet',
        route: 'sublingual',
        frequency: 'at-bedtime',
        asNeeded: true,
        asNeededReason: 'dormir',
      }),
      'es',
      '1 tableta por vía sublingual a la hora de acostarse según sea necesario para dormir',
    ],
    [
      'as needed without a reason',
      dose({ amount: 0.5, frequency: 'twice-daily', asNeeded: true }),
      'en',
      '0.5 mg by mouth twice daily as needed',
    ],
    [
      'as needed without a reason',
      dose({ amount: 0.5, frequency: 'twice-daily', asNeeded: true, asNeededReason: '  ' }),
      'es',
      '0.5 mg por vía oral dos veces al día según sea necesario',
    ],
    ['a plural unit', dose({ amount: 2, unit: 'tablet' }), 'en', '2 tablets by mouth once daily'],
    ['a plural unit', dose({ amount: 2, unit: 'tablet' }), 'es', '2 tabletas por vía oral una vez al día'],
    ['a fraction of a unit', dose({ amount: 0.5, unit: 'tablet' }), 'en', '0.5 tablets by mouth once daily'],
    [
      'a plural -es unit',
      dose({ amount: 2, unit: 'patch', route: 'transdermal' }),
      'en',
      '2 patches on the skin once daily',
    ],
    [
      'a plural -es unit',
      dose({ amount: 2, unit: 'unit', route: 'subcutaneous' }),
      'es',
      '2 unidades por vía subcutánea una vez al día',
    ],
    [
      'a long-acting injection',
      dose({ amount: 234, route: 'intramuscular', frequency: 'every-4-weeks' }),
      'en',
      '234 mg into the muscle every 4 weeks',
    ],
    [
      'a nasal spray',
      dose({ amount: 56, route: 'intranasal', frequency: 'once-weekly' }),
      'es',
      '56 mg por vía intranasal una vez a la semana',
    ],
    [
      'the route "other", left to the instructions',
      dose({ route: 'other', frequency: 'as-directed' }),
      'en',
      '50 mg as directed',
    ],
    [
      'a reason that already says "for"',
      dose({ asNeeded: true, asNeededReason: 'For anxiety' }),
      'en',
      '50 mg by mouth once daily as needed for anxiety',
    ],
    ['a decimal dose', dose({ amount: 37.5, unit: 'mg' }), 'es', '37.5 mg por vía oral una vez al día'],
  ];

  it.each(CASES)('writes %s (%s)', (_case, given, language, expected) => {
    expect(formatSig(given, language)).toBe(expected);
  });
});

describe('formatDoseAmount', () => {
  it.each([
    [0.5, '0.5'],
    [0.125, '0.125'],
    [12.5, '12.5'],
    [1.1, '1.1'],
    [2.0, '2'],
    [0.1 + 0.2, '0.3'],
    [1000, '1000'],
  ])('prints %d as %s', (amount, expected) => {
    expect(formatDoseAmount(amount)).toBe(expected);
  });

  it('refuses an amount that is not above 0', () => {
    for (const amount of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 0.00001])
      expect(() => formatDoseAmount(amount)).toThrow(RangeError);
  });
});

describe('the labels', () => {
  it('name every option in both languages', () => {
    const sets = [
      [DOSE_UNITS, DOSE_UNIT_LABELS],
      [MEDICATION_FORMS, FORM_LABELS],
      [ROUTES, ROUTE_LABELS],
      [FREQUENCIES, FREQUENCY_LABELS],
    ] as const;
    for (const [options, labels] of sets) {
      expect(Object.keys(labels).sort()).toEqual([...options].sort());
      for (const label of Object.values(labels)) {
        expect(label.en.trim()).not.toBe('');
        expect(label.es.trim()).not.toBe('');
      }
    }
  });

  it('give each frequency the sig’s words with a capital', () => {
    expect(FREQUENCY_LABELS['once-daily']).toEqual({ en: 'Once daily', es: 'Una vez al día' });
    expect(FREQUENCY_LABELS['at-bedtime']).toEqual({ en: 'At bedtime', es: 'A la hora de acostarse' });
  });
});
