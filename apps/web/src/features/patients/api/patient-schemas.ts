import { z } from 'zod';

/** What a patient card needs; the list asks for no more (clinical text stays out of list pages). */
export const PATIENT_SUMMARY_FIELDS = 'id firstName lastName email phone dateOfBirth isActive createdAt owner';

export const PATIENT_DETAIL_FIELDS = `${PATIENT_SUMMARY_FIELDS} updatedAt street city state zipCode
  emergencyContactName emergencyContactPhone insuranceProvider insurancePolicyNumber
  reasonForCare allergies currentMedications medicalHistory`;

export const PatientSummarySchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** YYYY-MM-DD, a calendar date (no time zone). */
  dateOfBirth: z.string(),
  isActive: z.boolean(),
  /** ISO timestamp. */
  createdAt: z.string(),
  /** The primary provider's account id; null when unassigned. */
  owner: z.string().nullable(),
});
export type PatientSummary = z.infer<typeof PatientSummarySchema>;

export const PatientSchema = PatientSummarySchema.extend({
  updatedAt: z.string(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  emergencyContactName: z.string().nullable(),
  emergencyContactPhone: z.string().nullable(),
  insuranceProvider: z.string().nullable(),
  insurancePolicyNumber: z.string().nullable(),
  reasonForCare: z.string().nullable(),
  allergies: z.string().nullable(),
  currentMedications: z.string().nullable(),
  medicalHistory: z.string().nullable(),
});
export type Patient = z.infer<typeof PatientSchema>;

/** The list's filter as the screen holds it; blank search means none. */
export interface PatientListFilter {
  search: string;
  status: 'all' | 'active' | 'inactive';
}

/** The GraphQL `PatientFilterInput` for a screen filter: only what is set. */
export function toFilterInput(filter: PatientListFilter): { search?: string; isActive?: boolean } {
  const search = filter.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(filter.status === 'all' ? {} : { isActive: filter.status === 'active' }),
  };
}
