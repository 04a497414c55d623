import { describe, expect, it } from 'vitest';

import { emptyProviderFormValues, validateCreateDoctor } from './provider-form-values.ts';

describe('validateCreateDoctor', () => {
  it('puts a message at each missing required field', () => {
    expect(validateCreateDoctor(emptyProviderFormValues())).toEqual({
      ok: false,
      errors: {
        firstName: { id: 'fieldMessages.required', params: { label: 'First name' } },
        lastName: { id: 'fieldMessages.required', params: { label: 'Last name' } },
        email: { id: 'fieldMessages.emailRequired', params: {} },
        specialty: { id: 'fieldMessages.chooseSpecialty', params: {} },
      },
    });
  });

  it('sends whole years (none typed is 0) and leaves blank phone and bio out', () => {
    expect(
      validateCreateDoctor({
        ...emptyProviderFormValues(),
        firstName: 'Ines',
        lastName: 'Carvalho',
        email: 'Ines@Example.com',
        specialty: 'Psychiatry',
        bio: '  ',
      }),
    ).toEqual({
      ok: true,
      data: {
        firstName: 'Ines',
        lastName: 'Carvalho',
        email: 'ines@example.com',
        specialty: 'Psychiatry',
        experience: 0,
        sendInvitation: true,
      },
    });
  });

  it('sends the invitation unless it is unticked', () => {
    const values = {
      ...emptyProviderFormValues(),
      firstName: 'Ines',
      lastName: 'Carvalho',
      email: 'ines@example.com',
      specialty: 'Psychiatry' as const,
    };
    expect(emptyProviderFormValues().sendInvitation).toBe(true);
    expect(validateCreateDoctor({ ...values, sendInvitation: false })).toMatchObject({
      ok: true,
      data: { sendInvitation: false },
    });
  });

  it('refuses experience beyond the limit', () => {
    const result = validateCreateDoctor({
      ...emptyProviderFormValues(),
      firstName: 'Ines',
      lastName: 'Carvalho',
      email: 'ines@example.com',
      specialty: 'Other',
      experience: 120,
    });
    expect(result).toEqual({
      ok: false,
      errors: { experience: { id: 'fieldMessages.experienceTooHigh', params: { max: 80 } } },
    });
  });
});
