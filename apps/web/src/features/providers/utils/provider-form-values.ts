import { CreateDoctorInputSchema, type CreateDoctorData, type Specialty } from '@telehealth/shared';

import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';

export interface ProviderFormValues {
  firstName: string;
  lastName: string;
  email: string;
  specialty: Specialty | null;
  /** Whole years as typed; '' when empty. */
  experience: number | string;
  phone: string;
  bio: string;
  /** E-mail the new account an invitation to set its password (on unless the administrator unticks it). */
  sendInvitation: boolean;
}

export const PROVIDER_FORM_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'specialty',
  'experience',
  'phone',
  'bio',
] as const;
export type ProviderFormField = (typeof PROVIDER_FORM_FIELDS)[number];

export function emptyProviderFormValues(): ProviderFormValues {
  return {
    firstName: '',
    lastName: '',
    email: '',
    specialty: null,
    experience: '',
    phone: '',
    bio: '',
    sendInvitation: true,
  };
}

/**
 * The createDoctor input checked with the shared schema. An empty experience means 0 years (the
 * specification's rule); blank phone and bio are left out; whether to send the invitation is always said.
 */
export function validateCreateDoctor(
  values: ProviderFormValues,
): { ok: true; data: CreateDoctorData } | { ok: false; errors: FieldErrors } {
  const parsed = CreateDoctorInputSchema.safeParse({
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    specialty: values.specialty ?? undefined,
    experience: values.experience === '' ? 0 : values.experience,
    ...(values.phone.trim() ? { phone: values.phone } : {}),
    ...(values.bio.trim() ? { bio: values.bio } : {}),
    sendInvitation: values.sendInvitation,
  });
  if (!parsed.success) return { ok: false, errors: fieldErrorsFromZod(parsed.error) };
  const data = Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== null && value !== undefined),
  ) as CreateDoctorData;
  return { ok: true, data };
}
