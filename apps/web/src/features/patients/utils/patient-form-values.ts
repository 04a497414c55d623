import {
  CreatePatientInputSchema,
  PATIENT_TEXT_FIELDS,
  UpdatePatientInputSchema,
  type CreatePatientData,
  type CreatePatientInput,
  type UpdatePatientData,
  type UpdatePatientInput,
} from '@telehealth/shared';

import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import type { Patient } from '../api/patient-schemas.ts';

export type PatientTextField = (typeof PATIENT_TEXT_FIELDS)[number];

export const REQUIRED_PATIENT_FIELDS: readonly PatientTextField[] = ['firstName', 'lastName', 'email', 'dateOfBirth'];

/** Every field the form holds, as the inputs hold them: text as typed ('' for nothing). */
export type PatientFormValues = Record<PatientTextField, string> & {
  isActive: boolean;
  /** The primary provider's account id (administrators only); null for unassigned. */
  owner: string | null;
};

export type PatientFormField = keyof PatientFormValues;

/** Fields in screen order: where the first message is, focus goes. */
export const PATIENT_FORM_FIELD_ORDER: readonly PatientFormField[] = [
  ...PATIENT_TEXT_FIELDS.slice(0, 5),
  'owner',
  'isActive',
  ...PATIENT_TEXT_FIELDS.slice(5),
];

export function emptyPatientFormValues(): PatientFormValues {
  const text = Object.fromEntries(PATIENT_TEXT_FIELDS.map((field) => [field, ''])) as Record<PatientTextField, string>;
  return { ...text, isActive: true, owner: null };
}

/** A stored record as the form shows it: missing optional values become empty inputs. */
export function patientToFormValues(patient: Patient): PatientFormValues {
  const text = Object.fromEntries(PATIENT_TEXT_FIELDS.map((field) => [field, patient[field] ?? ''])) as Record<
    PatientTextField,
    string
  >;
  return { ...text, isActive: patient.isActive, owner: patient.owner };
}

export interface FormPermissions {
  /** Administrators choose the primary provider; providers own what they create and must not send `owner`. */
  canAssignOwner: boolean;
}

export type ValidationResult<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * The create payload, checked with the shared schema (the server checks it again). Blank optional fields are
 * left out; `isActive` is left to the server (new patients are active); `owner` only from administrators.
 */
export function validateCreatePatient(
  values: PatientFormValues,
  permissions: FormPermissions,
): ValidationResult<CreatePatientData> {
  const input: CreatePatientInput = {
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    dateOfBirth: values.dateOfBirth,
  };
  for (const field of PATIENT_TEXT_FIELDS) {
    if (!REQUIRED_PATIENT_FIELDS.includes(field) && values[field].trim() !== '') input[field] = values[field];
  }
  if (permissions.canAssignOwner && values.owner) input.owner = values.owner;

  const parsed = CreatePatientInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: fieldErrorsFromZod(parsed.error) };
  // Optional fields parse to null when blank; an absent key says the same with less to send.
  const data = Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== null && value !== undefined),
  ) as CreatePatientData;
  return { ok: true, data };
}

/**
 * The fields that differ from the stored record, as an `UpdatePatientInput` without the id. A cleared optional
 * field is sent as '' (the server stores no value); surrounding spaces alone are no change.
 */
export function changedPatientFields(
  initial: PatientFormValues,
  values: PatientFormValues,
  permissions: FormPermissions,
): Omit<UpdatePatientInput, 'id'> {
  const changes: Omit<UpdatePatientInput, 'id'> = {};
  for (const field of PATIENT_TEXT_FIELDS) {
    if (values[field].trim() !== initial[field].trim()) changes[field] = values[field];
  }
  if (values.isActive !== initial.isActive) changes.isActive = values.isActive;
  if (permissions.canAssignOwner && values.owner !== initial.owner) changes.owner = values.owner;
  return changes;
}

export type UpdateValidationResult = ValidationResult<UpdatePatientData> & { changedCount: number };

/** The update payload (id and changed fields only), checked field by field with the shared schema. */
export function validateUpdatePatient(
  id: string,
  initial: PatientFormValues,
  values: PatientFormValues,
  permissions: FormPermissions,
): UpdateValidationResult {
  const changes = changedPatientFields(initial, values, permissions);
  const changedCount = Object.keys(changes).length;
  const parsed = UpdatePatientInputSchema.safeParse({ id, ...changes });
  if (!parsed.success) return { ok: false, errors: fieldErrorsFromZod(parsed.error), changedCount };
  return { ok: true, data: parsed.data, changedCount };
}

/** The first field, in screen order, that has a message. */
export function firstInvalidField(errors: FieldErrors): PatientFormField | null {
  return PATIENT_FORM_FIELD_ORDER.find((field) => errors[field] !== undefined) ?? null;
}
