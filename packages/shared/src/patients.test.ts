import { describe, expect, it } from 'vitest';
import {
  CreatePatientInputSchema,
  DateOfBirthSchema,
  PhoneSchema,
  PolicyNumberSchema,
  UpdatePatientInputSchema,
  ageInYears,
  nameSchema,
} from './patients.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => i.message);

describe('registration validators', () => {
  it('names', () => {
    const first = nameSchema('First name');
    expect(messages(first.safeParse(' '))).toEqual(['First name is required']);
    expect(messages(first.safeParse('A'))).toEqual(['First name must be at least 2 characters long']);
    expect(messages(first.safeParse('Anne-Marie'))).toEqual([]);
    expect(first.parse('  Mary   Jo ')).toBe('Mary Jo');
  });

  it('phones', () => {
    expect(messages(PhoneSchema.safeParse('(503) 555-0101'))).toEqual([]);
    expect(messages(PhoneSchema.safeParse('+1 503.555.0101'))).toEqual([]);
    expect(messages(PhoneSchema.safeParse('503-555-010'))).toEqual(['Phone number must be 10-15 digits long']);
    expect(messages(PhoneSchema.safeParse('50-35-55-01-01'))).toEqual(['Please enter a valid phone number']);
  });

  it('dates of birth', () => {
    expect(messages(DateOfBirthSchema.safeParse('2000-13-01'))).toEqual(['Please enter a valid date']);
    expect(messages(DateOfBirthSchema.safeParse('1870-01-01'))).toEqual(['Please enter a valid date of birth']);
    expect(ageInYears('2000-06-15', '2026-06-14')).toBe(25);
    expect(ageInYears('2000-06-15', '2026-06-15')).toBe(26);
  });

  it('policy numbers keep letters, digits and hyphens', () => {
    expect(PolicyNumberSchema.parse(' ab-12 34 ')).toBe('ab-1234');
    expect(messages(PolicyNumberSchema.safeParse('a-1'))).toEqual(['Policy number must be 5-20 characters long']);
  });
});

describe('patient input', () => {
  it('treats blank optional fields as no value', () => {
    const data = CreatePatientInputSchema.parse({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'A@B.co',
      dateOfBirth: '1990-01-01',
      phone: ' ',
      allergies: '',
    });
    expect(data).toMatchObject({ email: 'a@b.co', phone: null, allergies: null });
  });

  it('checks only the supplied fields on update', () => {
    expect(UpdatePatientInputSchema.safeParse({ id: 'x', city: 'Salem' }).success).toBe(true);
    expect(messages(UpdatePatientInputSchema.safeParse({ id: 'x', lastName: '' }))).toEqual(['Last name is required']);
  });
});
