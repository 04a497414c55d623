import { z } from 'zod';
import { fieldMessage } from './field-messages.ts';
import { SPECIALTIES } from './options.ts';
import { nameSchema, optional, PatientEmailSchema, PhoneSchema, freeTextSchema } from './patients.ts';
import { OptionalBooleanSchema } from './text.ts';

export const BIO_MAX_LENGTH = 2000;
export const MAX_EXPERIENCE_YEARS = 80;

export const CreateDoctorInputSchema = z.object({
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
  email: PatientEmailSchema,
  specialty: z.enum(SPECIALTIES, { error: fieldMessage.error('chooseSpecialty') }),
  /** Whole years; anything unparsable falls back to 0, as the specification's create rule says. */
  experience: z.preprocess(
    (v) => {
      const n = typeof v === 'number' ? Math.trunc(v) : Number.parseInt(typeof v === 'string' ? v : '', 10);
      return Number.isFinite(n) ? n : 0;
    },
    z
      .number()
      .int()
      .min(0, { error: fieldMessage.error('experienceTooLow', { min: 0 }) })
      .max(MAX_EXPERIENCE_YEARS, { error: fieldMessage.error('experienceTooHigh', { max: MAX_EXPERIENCE_YEARS }) }),
  ),
  phone: optional(PhoneSchema),
  bio: optional(freeTextSchema('Bio', BIO_MAX_LENGTH)),
  isActive: OptionalBooleanSchema,
  /**
   * E-mail the new account an invitation to set its password (default: yes). Left out for an account that
   * already has a password. See docs/decisions/011-provider-invitations.md.
   */
  sendInvitation: OptionalBooleanSchema,
});
export type CreateDoctorInput = z.input<typeof CreateDoctorInputSchema>;
/** The provider's free-text fields (kept as typed, text.ts); the other text fields are short ones. */
export const PROVIDER_FREE_TEXT_FIELDS = ['bio'] as const;
export type CreateDoctorData = z.output<typeof CreateDoctorInputSchema>;

export const PROVIDER_MESSAGES = {
  cannotCreate: 'Permission denied: Cannot create providers',
  emailTaken: 'An account with this email already exists and is not a provider account',
  alreadyProvider: 'This account already has a provider record',
} as const;
