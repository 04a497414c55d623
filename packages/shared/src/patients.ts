import { z } from 'zod';
import { fieldMessage } from './field-messages.ts';
import { EMAIL_MAX_LENGTH } from './auth.ts';
import { formatMessage, MESSAGES } from './messages.ts';
import {
  normalizeText,
  OptionalBooleanSchema,
  RecordIdSchema,
  textProblem,
  textProblemIssue,
  textSchema,
} from './text.ts';

export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 50;
export const PHONE_MIN_DIGITS = 10;
export const PHONE_MAX_DIGITS = 15;
export const MAX_AGE_YEARS = 150;
export const POLICY_NUMBER_MIN = 5;
export const POLICY_NUMBER_MAX = 20;
export const TEXT_LIMITS = {
  allergies: 1000,
  currentMedications: 1000,
  medicalHistory: 2000,
  generic: 2000,
} as const;
export const SHORT_TEXT_MAX = 200;

/**
 * The specification's name validator: required, 2-50 characters, letters (of any language), spaces, hyphens
 * and apostrophes; under the one text rule (text.ts) first.
 */
export function nameSchema(label: string) {
  return z.string({ error: fieldMessage.error('required', { label }) }).transform((raw, ctx) => {
    const refuse = (issue: { message: string; params: Record<string, unknown> }) => {
      ctx.addIssue({ code: 'custom', ...issue });
      return z.NEVER;
    };
    const value = normalizeText(raw, 'short');
    if (value === '') return refuse(fieldMessage.issue('required', { label }));
    // The specification's limit: 49 characters pass, 50 are "less than 50" too many.
    const problem = textProblem(value, 'short', NAME_MAX_LENGTH - 1);
    if (problem === 'tooLong') return refuse(textProblemIssue(problem, label, NAME_MAX_LENGTH));
    // The specification's message for markup in a name; other short fields say which characters.
    if (problem) return refuse(textProblemIssue('invalidCharacters', label, 0));
    if (value.length < NAME_MIN_LENGTH) return refuse(fieldMessage.issue('tooShort', { label, min: NAME_MIN_LENGTH }));
    if (!/^[\p{L}\p{M}' ’-]+$/u.test(value)) {
      return refuse(fieldMessage.issue('nameCharacters', { label }));
    }
    return value;
  });
}

export const PatientEmailSchema = z
  .string({ error: fieldMessage.error('emailRequired') })
  .superRefine((raw, ctx) => {
    const value = raw.trim().toLowerCase();
    if (value === '') return void ctx.addIssue({ code: 'custom', ...fieldMessage.issue('emailRequired') });
    if (value.length > EMAIL_MAX_LENGTH)
      return void ctx.addIssue({ code: 'custom', ...fieldMessage.issue('emailTooLong') });
    if (!z.email().safeParse(value).success) ctx.addIssue({ code: 'custom', ...fieldMessage.issue('emailInvalid') });
  })
  .transform((raw) => raw.trim().toLowerCase());

const US_PHONE = /^(\+?1[ .-]?)?(\(\d{3}\)|\d{3})[ .-]?\d{3}[ .-]?\d{4}$/;
const PHONE_MAX_LENGTH = 30;

/** 10-15 digits; a 10-digit number must be a US number (optional +1, parentheses, space, dash or dot). */
export const PhoneSchema = z.string().transform((raw, ctx) => {
  const refuse = (issue: { message: string; params: Record<string, unknown> }) => {
    ctx.addIssue({ code: 'custom', ...issue });
    return z.NEVER;
  };
  const value = normalizeText(raw, 'short');
  if (!/^\+?[\d ().-]+$/.test(value) || value.length > PHONE_MAX_LENGTH) {
    return refuse(fieldMessage.issue('phoneInvalid'));
  }
  const digits = value.replace(/\D/g, '').length;
  if (digits < PHONE_MIN_DIGITS || digits > PHONE_MAX_DIGITS) {
    return refuse(fieldMessage.issue('phoneDigits', { min: PHONE_MIN_DIGITS, max: PHONE_MAX_DIGITS }));
  }
  if (digits === 10 && !US_PHONE.test(value)) return refuse(fieldMessage.issue('phoneInvalid'));
  return value;
});

/** Today's date (UTC) as YYYY-MM-DD; the "now" that dates of birth are compared with. */
export function todayIsoDate(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A date of birth as YYYY-MM-DD: a real date, in the past, and an age of at most 150 years. */
export const DateOfBirthSchema = z
  .string({ error: fieldMessage.error('dateOfBirthRequired') })
  .superRefine((raw, ctx) => {
    const value = raw.trim();
    if (value === '') return void ctx.addIssue({ code: 'custom', ...fieldMessage.issue('dateOfBirthRequired') });
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    const date = match ? new Date(`${value}T00:00:00Z`) : null;
    if (!match || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
      return void ctx.addIssue({ code: 'custom', ...fieldMessage.issue('dateInvalid') });
    }
    const today = todayIsoDate();
    if (value >= today) return void ctx.addIssue({ code: 'custom', ...fieldMessage.issue('dateOfBirthPast') });
    const age = ageInYears(value, today);
    if (age < 0 || age > MAX_AGE_YEARS) ctx.addIssue({ code: 'custom', ...fieldMessage.issue('dateOfBirthInvalid') });
  })
  .transform((raw) => raw.trim());

export function ageInYears(dateOfBirth: string, today: string = todayIsoDate()): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** Free text (clinical history, reasons, notes): kept as typed, line breaks included; see text.ts. */
export function freeTextSchema(label: string, max: number) {
  return textSchema({ label, kind: 'free', max });
}

/** Short text (address lines, insurer, contact name): one line, spaces folded, no `<` or `>`; see text.ts. */
export function shortTextSchema(label: string, max: number = SHORT_TEXT_MAX) {
  return textSchema({ label, kind: 'short', max });
}

/** The specification's rule: only letters, digits and hyphens are kept; then 5-20 characters. */
export const PolicyNumberSchema = textSchema({ label: 'Policy number', kind: 'short', max: SHORT_TEXT_MAX })
  .transform((value) => value.replace(/[^A-Za-z0-9-]/g, ''))
  .superRefine((value, ctx) => {
    if (value === '')
      return void ctx.addIssue({ code: 'custom', ...fieldMessage.issue('required', { label: 'Policy number' }) });
    if (value.length < POLICY_NUMBER_MIN || value.length > POLICY_NUMBER_MAX) {
      ctx.addIssue({
        code: 'custom',
        ...fieldMessage.issue('lengthBetween', {
          label: 'Policy number',
          min: POLICY_NUMBER_MIN,
          max: POLICY_NUMBER_MAX,
        }),
      });
    }
  });

export const ZipCodeSchema = z
  .string()
  .transform((raw) => normalizeText(raw, 'short'))
  .refine((value) => /^\d{5}(-\d{4})?$/.test(value), { error: fieldMessage.error('zipInvalid') });

/** An optional field: absent, null or blank means "no value" (stored as null); anything else must pass. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional());
}

export const PATIENT_LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  dateOfBirth: 'Date of birth',
  phone: 'Phone',
  street: 'Street address',
  city: 'City',
  state: 'State',
  zipCode: 'ZIP code',
  emergencyContactName: 'Emergency contact name',
  emergencyContactPhone: 'Emergency contact phone',
  insuranceProvider: 'Insurance provider',
  insurancePolicyNumber: 'Policy number',
  reasonForCare: 'Reason for care',
  allergies: 'Allergies',
  currentMedications: 'Current medications',
  medicalHistory: 'Medical history',
} as const;

const L = PATIENT_LABELS;

/** The patient's optional text fields, in the order the registration form shows them. */
export const PATIENT_OPTIONAL_TEXT_FIELDS = [
  'phone',
  'street',
  'city',
  'state',
  'zipCode',
  'emergencyContactName',
  'emergencyContactPhone',
  'insuranceProvider',
  'insurancePolicyNumber',
  'reasonForCare',
  'allergies',
  'currentMedications',
  'medicalHistory',
] as const;

/** The patient's free-text fields (kept as typed, text.ts); every other text field is a short one. */
export const PATIENT_FREE_TEXT_FIELDS = ['reasonForCare', 'allergies', 'currentMedications', 'medicalHistory'] as const;

/** Every text field of a patient, required ones first, in the order the registration form shows them. */
export const PATIENT_TEXT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'dateOfBirth',
  ...PATIENT_OPTIONAL_TEXT_FIELDS,
] as const;

/** Every patient field with its rules. Used whole for creating, field by field for updating. */
export const patientFieldSchemas = {
  firstName: nameSchema(L.firstName),
  lastName: nameSchema(L.lastName),
  email: PatientEmailSchema,
  dateOfBirth: DateOfBirthSchema,
  phone: optional(PhoneSchema),
  isActive: OptionalBooleanSchema,
  street: optional(shortTextSchema(L.street)),
  city: optional(shortTextSchema(L.city, 100)),
  state: optional(shortTextSchema(L.state, 50)),
  zipCode: optional(ZipCodeSchema),
  emergencyContactName: optional(shortTextSchema(L.emergencyContactName, 100)),
  emergencyContactPhone: optional(PhoneSchema),
  insuranceProvider: optional(shortTextSchema(L.insuranceProvider, 100)),
  insurancePolicyNumber: optional(PolicyNumberSchema),
  reasonForCare: optional(freeTextSchema(L.reasonForCare, TEXT_LIMITS.generic)),
  allergies: optional(freeTextSchema(L.allergies, TEXT_LIMITS.allergies)),
  currentMedications: optional(freeTextSchema(L.currentMedications, TEXT_LIMITS.currentMedications)),
  medicalHistory: optional(freeTextSchema(L.medicalHistory, TEXT_LIMITS.medicalHistory)),
  /** The primary provider's account id; only administrators may set it. */
  owner: z
    .uuid({ error: fieldMessage.error('chooseProvider') })
    .nullable()
    .optional(),
};

export const CreatePatientInputSchema = z.object(patientFieldSchemas);
export type CreatePatientInput = z.input<typeof CreatePatientInputSchema>;
export type CreatePatientData = z.output<typeof CreatePatientInputSchema>;

/** An update carries the id and only the changed fields; only those are checked. */
export const UpdatePatientInputSchema = z
  .object({ id: RecordIdSchema, ...patientFieldSchemas })
  .partial()
  .required({ id: true });
export type UpdatePatientInput = z.input<typeof UpdatePatientInputSchema>;
export type UpdatePatientData = z.output<typeof UpdatePatientInputSchema>;

export const PatientFilterSchema = z.object({
  search: textSchema({ label: 'Search', kind: 'search', max: 100 }).optional().nullable(),
  isActive: z.boolean().optional().nullable(),
});

export const PATIENT_MESSAGES = {
  notFound: 'Patient not found',
  cannotView: 'Permission denied: Cannot view patients',
  cannotViewOne: 'Permission denied: Cannot view patient',
  cannotCreate: 'Permission denied: Cannot create patients',
  cannotUpdate: 'Permission denied: Cannot update patients',
  cannotDelete: 'Permission denied: Cannot delete patients',
  cannotAssign: "Permission denied: Only administrators can change a patient's primary provider",
  invalidToken: 'Invalid nextToken: start again from the first page.',
  accessDeniedPage: 'You do not have permission to view the patients page.',
  loadFailed: 'Failed to load patients',
  deleted: 'Patient deleted successfully',
  createFailed: 'Failed to create patient. Please try again.',
} as const;

export function deleteConfirmation(firstName: string, lastName: string): string {
  return `Are you sure you want to delete patient ${firstName} ${lastName}? This action cannot be undone.`;
}

/** "Validation failed: " and every problem, joined by commas. */
export function validationFailedMessage(problems: readonly string[]): string {
  return formatMessage(MESSAGES.validationFailed, { problems: problems.join(', ') });
}
