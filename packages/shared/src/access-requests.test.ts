import { describe, expect, it } from 'vitest';
import {
  accessRequestLocale,
  accessRequestOptionLabel,
  PATIENT_ACCESS_REQUEST_OPTION_LABELS,
  PROVIDER_ACCESS_REQUEST_OPTION_LABELS,
  isHoneypotFilled,
  PatientAccessRequestSchema,
  patientAccessRequestDefaults,
  PROVIDER_ACCESS_REQUEST_DEFAULTS,
  ProviderAccessRequestSchema,
} from './access-requests.ts';
import { ResetPasswordInputSchema } from './account-setup.ts';
import { experienceLowerBound, YEARS_OF_EXPERIENCE } from './options.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const doctor = {
  firstName: 'Elena',
  lastName: 'Marsh',
  email: 'Elena@Clinic.Example ',
  phone: '503-555-0123',
  medicalLicense: 'MD-1',
  specialty: 'Psychiatry',
  yearsOfExperience: '0-2',
  organizationName: 'Riverside',
  ...PROVIDER_ACCESS_REQUEST_DEFAULTS,
};

describe('ProviderAccessRequestSchema', () => {
  it('needs the nine required fields, each with its own message', () => {
    expect(messages(ProviderAccessRequestSchema.safeParse({ practiceType: '' }))).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      phone: 'Phone number is required',
      medicalLicense: 'Medical license number is required',
      specialty: 'Specialty is required',
      yearsOfExperience: 'Years of experience is required',
      practiceType: 'Practice type is required',
      organizationName: 'Organization name is required',
    });
  });

  it('keeps blank optional fields as null, applies defaults and drops duplicate features', () => {
    const result = ProviderAccessRequestSchema.parse({
      ...doctor,
      practiceZip: ' ',
      interestedFeatures: ['Clinical Notes', 'Clinical Notes'],
      preferredContactMethod: null,
    });
    expect(result).toMatchObject({
      email: 'elena@clinic.example',
      practiceZip: null,
      practiceType: 'private',
      preferredContactMethod: 'email',
      interestedFeatures: ['Clinical Notes'],
    });
  });

  it('refuses a filled honeypot', () => {
    expect(messages(ProviderAccessRequestSchema.safeParse({ ...doctor, website: 'x' }))).toEqual({
      website: 'Leave this field empty',
    });
    expect(isHoneypotFilled({ website: ' x ' })).toBe(true);
    expect(isHoneypotFilled({ website: '  ' })).toBe(false);
    expect(isHoneypotFilled({ website: 1 })).toBe(true);
    expect(isHoneypotFilled(null)).toBe(false);
  });
});

describe('PatientAccessRequestSchema', () => {
  const patient = {
    firstName: 'Ana',
    lastName: 'Ruiz',
    dateOfBirth: '1990-01-02',
    phone: '503-555-0101',
    email: 'ana@mail.example',
    reasonForInterest: 'Anxiety',
    consentToContact: true,
  };

  it('needs consent, and says so', () => {
    expect(messages(PatientAccessRequestSchema.safeParse({ ...patient, consentToContact: false }))).toEqual({
      consentToContact: 'Please agree to be contacted about your request',
    });
  });

  it('holds the zip code and applies the language and contact defaults', () => {
    expect(PatientAccessRequestSchema.parse({ ...patient, zipCode: '97301-1234' })).toMatchObject({
      zipCode: '97301-1234',
      languagePreference: 'english',
      preferredContactMethod: 'email',
      servicesInterested: [],
    });
    expect(patientAccessRequestDefaults('es').languagePreference).toBe('spanish');
  });

  it('checks free text length and characters, keeps markup in free text as typed, refuses it in short fields', () => {
    expect(
      messages(
        PatientAccessRequestSchema.safeParse({
          ...patient,
          allergies: 'x'.repeat(1001),
          currentMedications: 'Sertraline\u0000',
          city: '<svg/onload=alert(1)>',
        }),
      ),
    ).toEqual({
      allergies: 'Allergies must be less than 1000 characters',
      currentMedications: 'Current medications contains invalid characters',
      city: 'City cannot contain < or >',
    });
    const typed = '<script>x</script> and dose < 5 mg';
    expect(PatientAccessRequestSchema.parse({ ...patient, currentMedications: typed }).currentMedications).toBe(typed);
  });
});

describe('helpers', () => {
  it('reads the lower bound of each experience range', () => {
    expect(YEARS_OF_EXPERIENCE.map(experienceLowerBound)).toEqual([0, 3, 6, 11, 16, 20]);
  });

  it('chooses the e-mail language from the patient, else the site', () => {
    expect(accessRequestLocale('patient', { languagePreference: 'spanish', locale: 'en' })).toBe('es');
    expect(accessRequestLocale('patient', { languagePreference: 'other', locale: 'es' })).toBe('es');
    expect(accessRequestLocale('provider', { locale: null })).toBe('en');
  });

  it('takes a reset link token, or an e-mail and a 6-digit code', () => {
    expect(ResetPasswordInputSchema.safeParse({ token: 'abc', newPassword: 'Abcdef1!' }).success).toBe(true);
    expect(
      ResetPasswordInputSchema.safeParse({ email: 'a@b.example', code: '123456', newPassword: 'Abcdef1!' }).success,
    ).toBe(true);
    expect(
      messages(ResetPasswordInputSchema.safeParse({ email: 'a@b.example', code: '12345', newPassword: 'Abcdef1!' })),
    ).toEqual({
      code: 'Please enter the 6-digit code from the email',
    });
  });
});

describe('accessRequestOptionLabel', () => {
  it('labels every stored code of the choice fields and leaves words and unknown values as they are', () => {
    expect(accessRequestOptionLabel('provider', 'practiceType', 'academic')).toBe('Academic medical center');
    expect(accessRequestOptionLabel('provider', 'yearsOfExperience', '20+')).toBe('20+ years');
    expect(accessRequestOptionLabel('provider', 'preferredContactMethod', 'either')).toBe('Either');
    expect(accessRequestOptionLabel('patient', 'preferredContactMethod', 'text')).toBe('Text message');
    expect(accessRequestOptionLabel('patient', 'preferredAppointmentTimes', 'morning')).toBe('Morning (8am-12pm)');
    expect(accessRequestOptionLabel('patient', 'hearAboutUs', 'doctor-referral')).toBe('Doctor referral');
    expect(accessRequestOptionLabel('provider', 'specialty', 'Psychiatry')).toBe('Psychiatry');
    expect(accessRequestOptionLabel('patient', 'technologyComfort', 'toString')).toBe('toString');
    expect(accessRequestOptionLabel('patient', 'constructor', 'x')).toBe('x');
  });

  it('has a label for every value of every coded option set', () => {
    for (const value of YEARS_OF_EXPERIENCE) {
      expect(accessRequestOptionLabel('provider', 'yearsOfExperience', value)).not.toBe(value);
    }
    for (const [kind, sets] of [
      ['provider', PROVIDER_ACCESS_REQUEST_OPTION_LABELS],
      ['patient', PATIENT_ACCESS_REQUEST_OPTION_LABELS],
    ] as const) {
      for (const labels of Object.values(sets)) {
        for (const label of Object.values(labels)) expect(label.trim(), kind).not.toBe('');
      }
    }
  });
});
