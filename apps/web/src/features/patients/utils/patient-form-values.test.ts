import { describe, expect, it } from 'vitest';

import type { Patient } from '../api/patient-schemas.ts';
import {
  changedPatientFields,
  emptyPatientFormValues,
  firstInvalidField,
  patientToFormValues,
  validateCreatePatient,
  validateUpdatePatient,
  type PatientFormValues,
} from './patient-form-values.ts';

const PROVIDER = { canAssignOwner: false };
const ADMIN = { canAssignOwner: true };
const OWNER_ID = '0b6f4a0e-8a43-4c1f-9a37-6e4a1d7f2c11';
const OTHER_OWNER_ID = '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function formWith(values: Partial<PatientFormValues>): PatientFormValues {
  return { ...emptyPatientFormValues(), ...values };
}

const VALID = formWith({
  firstName: 'Amara',
  lastName: "O'Donnell",
  email: ' Amara.ODonnell@Example.com ',
  dateOfBirth: '1986-04-12',
});

const STORED: Patient = {
  id: 'a3f1c9e2-1b2c-4d5e-8f90-1234567890ab',
  firstName: 'Amara',
  lastName: "O'Donnell",
  email: 'amara@example.com',
  phone: '(503) 555-0142',
  dateOfBirth: '1986-04-12',
  isActive: true,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  owner: OWNER_ID,
  street: '12 Alder St',
  city: 'Portland',
  state: 'OR',
  zipCode: '97205',
  emergencyContactName: null,
  emergencyContactPhone: null,
  insuranceProvider: 'Cascade Mutual',
  insurancePolicyNumber: 'POL-12345',
  reasonForCare: 'Low mood',
  allergies: null,
  currentMedications: null,
  medicalHistory: null,
};

describe('validateCreatePatient', () => {
  it('puts a message at each required field that is missing', () => {
    const result = validateCreatePatient(emptyPatientFormValues(), PROVIDER);
    expect(result).toEqual({
      ok: false,
      errors: {
        firstName: { id: 'fieldMessages.required', params: { label: 'First name' } },
        lastName: { id: 'fieldMessages.required', params: { label: 'Last name' } },
        email: { id: 'fieldMessages.emailRequired', params: {} },
        dateOfBirth: { id: 'fieldMessages.dateOfBirthRequired', params: {} },
      },
    });
  });

  it('checks optional fields only when they hold something', () => {
    const result = validateCreatePatient(
      formWith({ ...VALID, phone: '12345', zipCode: 'ABC', insurancePolicyNumber: 'AB', allergies: 'x'.repeat(1001) }),
      PROVIDER,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      phone: { id: 'fieldMessages.phoneDigits', params: { min: 10, max: 15 } },
      zipCode: { id: 'fieldMessages.zipInvalid', params: {} },
      insurancePolicyNumber: { id: 'fieldMessages.lengthBetween', params: { label: 'Policy number', min: 5, max: 20 } },
      allergies: { id: 'fieldMessages.tooLong', params: { label: 'Allergies', max: 1000 } },
    });
  });

  it('sends the cleaned values and leaves blank optional fields, isActive and owner out', () => {
    const result = validateCreatePatient(formWith({ ...VALID, phone: ' 503-555-0100 ', city: '   ' }), PROVIDER);
    expect(result).toEqual({
      ok: true,
      data: {
        firstName: 'Amara',
        lastName: "O'Donnell",
        email: 'amara.odonnell@example.com',
        dateOfBirth: '1986-04-12',
        phone: '503-555-0100',
      },
    });
  });

  it('sends the primary provider only for administrators', () => {
    const withOwner = formWith({ ...VALID, owner: OWNER_ID });
    expect(validateCreatePatient(withOwner, ADMIN)).toMatchObject({ ok: true, data: { owner: OWNER_ID } });
    const asProvider = validateCreatePatient(withOwner, PROVIDER);
    expect(asProvider.ok && 'owner' in asProvider.data).toBe(false);
  });
});

describe('changedPatientFields', () => {
  const initial = patientToFormValues(STORED);

  it('is empty when nothing changed (surrounding spaces are no change)', () => {
    expect(changedPatientFields(initial, { ...initial, city: ' Portland ' }, ADMIN)).toEqual({});
  });

  it('holds only the changed fields, a cleared optional field as an empty string', () => {
    const values = { ...initial, lastName: 'Bello', phone: '', isActive: false };
    expect(changedPatientFields(initial, values, PROVIDER)).toEqual({ lastName: 'Bello', phone: '', isActive: false });
  });

  it('includes a new primary provider (or none) only for administrators', () => {
    expect(changedPatientFields(initial, { ...initial, owner: OTHER_OWNER_ID }, ADMIN)).toEqual({
      owner: OTHER_OWNER_ID,
    });
    expect(changedPatientFields(initial, { ...initial, owner: null }, ADMIN)).toEqual({ owner: null });
    expect(changedPatientFields(initial, { ...initial, owner: OTHER_OWNER_ID }, PROVIDER)).toEqual({});
  });
});

describe('validateUpdatePatient', () => {
  const initial = patientToFormValues(STORED);

  it('sends the id and the changed fields, clearing with null', () => {
    const result = validateUpdatePatient(
      STORED.id,
      initial,
      { ...initial, email: 'NEW@example.com', street: '' },
      PROVIDER,
    );
    expect(result).toEqual({
      ok: true,
      changedCount: 2,
      data: { id: STORED.id, email: 'new@example.com', street: null },
    });
  });

  it('checks only the changed fields', () => {
    // A stored value that today's rules would refuse is not the person's problem unless they touch it.
    const legacy = { ...initial, zipCode: 'OLD' };
    const result = validateUpdatePatient(STORED.id, legacy, { ...legacy, firstName: '' }, PROVIDER);
    expect(result).toEqual({
      ok: false,
      changedCount: 1,
      errors: { firstName: { id: 'fieldMessages.required', params: { label: 'First name' } } },
    });
  });

  it('says when there is nothing to save', () => {
    expect(validateUpdatePatient(STORED.id, initial, initial, ADMIN)).toMatchObject({ changedCount: 0 });
  });
});

describe('firstInvalidField', () => {
  it('follows the order of the fields on screen', () => {
    const problem = { id: 'fieldMessages.invalid', params: {} };
    expect(firstInvalidField({ medicalHistory: problem, email: problem, owner: problem })).toBe('email');
    expect(firstInvalidField({ zipCode: problem, owner: problem })).toBe('owner');
    expect(firstInvalidField({})).toBeNull();
  });
});
