import { fieldMessage, messageSection } from './field-messages.ts';
import { z } from 'zod';
import {
  HEAR_ABOUT_US_LABELS,
  HEAR_ABOUT_US_SOURCES,
  LANGUAGE_PREFERENCE_LABELS,
  LANGUAGE_PREFERENCES,
  LOCALES,
  PATIENT_CONTACT_METHOD_LABELS,
  PATIENT_CONTACT_METHODS,
  PATIENT_SERVICES,
  PATIENT_VOLUME_LABELS,
  PATIENT_VOLUMES,
  PRACTICE_TYPE_LABELS,
  PRACTICE_TYPES,
  PREFERRED_APPOINTMENT_TIME_LABELS,
  PREFERRED_APPOINTMENT_TIMES,
  PROVIDER_CONTACT_METHOD_LABELS,
  PROVIDER_CONTACT_METHODS,
  PROVIDER_INTERESTED_FEATURES,
  REFERRAL_SOURCE_LABELS,
  REFERRAL_SOURCES,
  SPECIALTIES,
  TECHNOLOGY_COMFORT_LABELS,
  TECHNOLOGY_COMFORT_LEVELS,
  YEARS_OF_EXPERIENCE,
  YEARS_OF_EXPERIENCE_LABELS,
  type Locale,
} from './options.ts';
import {
  DateOfBirthSchema,
  freeTextSchema,
  nameSchema,
  optional,
  PatientEmailSchema,
  PhoneSchema,
  shortTextSchema,
  TEXT_LIMITS,
  ZipCodeSchema,
} from './patients.ts';
import { RecordIdSchema } from './text.ts';

export const ACCESS_REQUEST_KINDS = ['provider', 'patient'] as const;
export type AccessRequestKind = (typeof ACCESS_REQUEST_KINDS)[number];

export const ACCESS_REQUEST_STATUSES = ['new', 'approved', 'declined'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

/** Accepted access requests per client address (stored requests; a rejected form does not count). */
export const ACCESS_REQUEST_RATE_LIMIT = { maxAttempts: 5, windowMs: 60 * 60 * 1000 } as const;

/** The field that people never see and bots fill in. A filled one is answered as a success and thrown away. */
export const ACCESS_REQUEST_HONEYPOT_FIELD = 'website';

export const DECLINE_REASON_MAX_LENGTH = 1000;

export const ACCESS_REQUEST_MESSAGES = {
  submitting: 'Submitting Request...',
  submitError: 'Error submitting request. Please try again.',
  received: 'Thank you. Your request has been received; we will review it within 1-2 business days.',
  reviewTime: 'Review within 1-2 business days',
  consentRequired: 'Please agree to be contacted about your request',
  notFound: 'Access request not found',
  alreadyReviewed: 'This request has already been reviewed',
  accountExists: 'An account with this email already exists',
  chooseProvider: 'Please choose a provider',
  approved: 'The request is approved and an invitation has been sent.',
  declined: 'The request is declined.',
  cannotReview: 'Permission denied: Only administrators can review access requests',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const accessRequestMessage = messageSection('accessRequestMessages', ACCESS_REQUEST_MESSAGES);

/** The "What's Next" card beside both forms. */
export const ACCESS_REQUEST_NEXT_STEPS = [
  'Review within 1-2 business days',
  'Credential verification',
  'Account setup',
  'Platform training',
] as const;

/** The thank-you screen of the doctor form addresses the requester as Dr. plus last name. */
export function providerThankYouHeading(lastName: string): string {
  return `Thank you, Dr. ${lastName}!`;
}

/** The thank-you screen of the patient form uses the first name. */
export function patientThankYouHeading(firstName: string): string {
  return `Thank you, ${firstName}!`;
}

/** A required text field: `{label} is required` when absent or blank, then the field's own rules. */
function requiredText<T extends z.ZodType<unknown, string>>(label: string, schema: T) {
  return z
    .string({ error: fieldMessage.error('required', { label }) })
    .refine((value) => value.trim() !== '', { error: fieldMessage.error('required', { label }) })
    .pipe(schema);
}

/** One option of a set: `{label} is required` when absent, `Please choose a valid {label}` when unknown. */
function choice<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.enum(values, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? fieldMessage.error('required', { label })(issue)
        : fieldMessage.error('chooseValid', { label: label.toLowerCase() })(issue),
  });
}

/** An optional choice with a default: absent, null or blank takes the default. */
function choiceWithDefault<const T extends readonly [string, ...string[]]>(
  label: string,
  values: T,
  fallback: T[number],
) {
  return z.preprocess((v) => (v === undefined || v === null || v === '' ? fallback : v), choice(label, values));
}

/** A multi-select: absent means none; each value must be one of the set; duplicates are dropped. */
function multiChoice<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.preprocess(
    (v) => v ?? [],
    z
      .array(z.enum(values, { error: fieldMessage.error('chooseValidMany', { label: label.toLowerCase() }) }), {
        error: fieldMessage.error('chooseValidMany', { label: label.toLowerCase() }),
      })
      .transform((list) => [...new Set(list)]),
  );
}

const honeypot = z
  .string()
  .max(0, { error: fieldMessage.error('leaveEmpty') })
  .nullable()
  .optional();
/** The language the person was using the site in: the language of the e-mails the request causes. */
const locale = z
  .enum(LOCALES, { error: fieldMessage.error('languageInvalid') })
  .nullable()
  .optional();

export const PROVIDER_ACCESS_REQUEST_LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone number',
  medicalLicense: 'Medical license number',
  specialty: 'Specialty',
  subSpecialty: 'Subspecialty',
  yearsOfExperience: 'Years of experience',
  boardCertifications: 'Board certifications',
  practiceType: 'Practice type',
  organizationName: 'Organization name',
  practiceAddress: 'Practice address',
  practiceCity: 'City',
  practiceState: 'State',
  practiceZip: 'ZIP code',
  currentEMR: 'Current EMR',
  patientVolume: 'Monthly patient volume',
  telemedicineExperience: 'Telemedicine experience',
  interestedFeatures: 'Features of interest',
  referralSource: 'Referral source',
  additionalInfo: 'Additional information',
  preferredContactMethod: 'Preferred contact method',
  bestTimeToContact: 'Best time to contact',
} as const;

const P = PROVIDER_ACCESS_REQUEST_LABELS;

/**
 * The doctor access request form. Required: first and last name, email, phone, medical license, specialty,
 * years of experience, practice type and organization name. Every other field may be left blank (stored as null).
 */
export const ProviderAccessRequestSchema = z.object({
  firstName: nameSchema(P.firstName),
  lastName: nameSchema(P.lastName),
  email: PatientEmailSchema,
  phone: requiredText(P.phone, PhoneSchema),
  medicalLicense: requiredText(P.medicalLicense, shortTextSchema(P.medicalLicense, 50)),
  specialty: choice(P.specialty, SPECIALTIES),
  subSpecialty: optional(shortTextSchema(P.subSpecialty, 100)),
  yearsOfExperience: choice(P.yearsOfExperience, YEARS_OF_EXPERIENCE),
  boardCertifications: optional(freeTextSchema(P.boardCertifications, 500)),
  practiceType: choice(P.practiceType, PRACTICE_TYPES),
  organizationName: requiredText(P.organizationName, shortTextSchema(P.organizationName)),
  practiceAddress: optional(shortTextSchema(P.practiceAddress)),
  practiceCity: optional(shortTextSchema(P.practiceCity, 100)),
  practiceState: optional(shortTextSchema(P.practiceState, 50)),
  practiceZip: optional(ZipCodeSchema),
  currentEMR: optional(shortTextSchema(P.currentEMR, 100)),
  patientVolume: optional(choice(P.patientVolume, PATIENT_VOLUMES)),
  telemedicineExperience: optional(freeTextSchema(P.telemedicineExperience, 1000)),
  interestedFeatures: multiChoice(P.interestedFeatures, PROVIDER_INTERESTED_FEATURES),
  referralSource: optional(choice(P.referralSource, REFERRAL_SOURCES)),
  additionalInfo: optional(freeTextSchema(P.additionalInfo, TEXT_LIMITS.generic)),
  preferredContactMethod: choiceWithDefault(P.preferredContactMethod, PROVIDER_CONTACT_METHODS, 'email'),
  bestTimeToContact: optional(shortTextSchema(P.bestTimeToContact, 100)),
  website: honeypot,
  locale,
});
export type ProviderAccessRequestInput = z.input<typeof ProviderAccessRequestSchema>;
/** The free-text fields of the doctor form (kept as typed, text.ts); its other text fields are short ones. */
export const PROVIDER_ACCESS_REQUEST_FREE_TEXT_FIELDS = [
  'boardCertifications',
  'telemedicineExperience',
  'additionalInfo',
] as const;
export type ProviderAccessRequestData = z.output<typeof ProviderAccessRequestSchema>;

/** What a new doctor form starts with. */
export const PROVIDER_ACCESS_REQUEST_DEFAULTS = {
  practiceType: 'private',
  preferredContactMethod: 'email',
  interestedFeatures: [],
} as const satisfies Partial<ProviderAccessRequestInput>;

export const PATIENT_ACCESS_REQUEST_LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  dateOfBirth: 'Date of birth',
  phone: 'Phone number',
  email: 'Email',
  address: 'Address',
  city: 'City',
  state: 'State',
  zipCode: 'ZIP code',
  emergencyContactName: 'Emergency contact name',
  emergencyContactPhone: 'Emergency contact phone',
  currentProvider: 'Current provider',
  providerPhone: 'Provider phone',
  referringDoctor: 'Referring doctor',
  insuranceProvider: 'Insurance provider',
  reasonForInterest: 'Reason for interest',
  currentConditions: 'Current conditions',
  currentMedications: 'Current medications',
  allergies: 'Allergies',
  servicesInterested: 'Services of interest',
  preferredAppointmentTimes: 'Preferred appointment times',
  technologyComfort: 'Technology comfort',
  additionalQuestions: 'Additional questions',
  hearAboutUs: 'How you heard about us',
  preferredContactMethod: 'Preferred contact method',
  languagePreference: 'Language preference',
  consentToContact: 'Consent to contact',
} as const;

const Q = PATIENT_ACCESS_REQUEST_LABELS;

/**
 * The patient access request form. Required: first and last name, date of birth, phone, email, reason for
 * interest, and the consent to be contacted (which must be given). Much of it is health information.
 */
export const PatientAccessRequestSchema = z.object({
  firstName: nameSchema(Q.firstName),
  lastName: nameSchema(Q.lastName),
  dateOfBirth: DateOfBirthSchema,
  phone: requiredText(Q.phone, PhoneSchema),
  email: PatientEmailSchema,
  address: optional(shortTextSchema(Q.address)),
  city: optional(shortTextSchema(Q.city, 100)),
  state: optional(shortTextSchema(Q.state, 50)),
  zipCode: optional(ZipCodeSchema),
  emergencyContactName: optional(shortTextSchema(Q.emergencyContactName, 100)),
  emergencyContactPhone: optional(PhoneSchema),
  currentProvider: optional(shortTextSchema(Q.currentProvider, 100)),
  providerPhone: optional(PhoneSchema),
  referringDoctor: optional(shortTextSchema(Q.referringDoctor, 100)),
  insuranceProvider: optional(shortTextSchema(Q.insuranceProvider, 100)),
  reasonForInterest: requiredText(Q.reasonForInterest, freeTextSchema(Q.reasonForInterest, TEXT_LIMITS.generic)),
  currentConditions: optional(freeTextSchema(Q.currentConditions, TEXT_LIMITS.medicalHistory)),
  currentMedications: optional(freeTextSchema(Q.currentMedications, TEXT_LIMITS.currentMedications)),
  allergies: optional(freeTextSchema(Q.allergies, TEXT_LIMITS.allergies)),
  servicesInterested: multiChoice(Q.servicesInterested, PATIENT_SERVICES),
  preferredAppointmentTimes: optional(choice(Q.preferredAppointmentTimes, PREFERRED_APPOINTMENT_TIMES)),
  technologyComfort: optional(choice(Q.technologyComfort, TECHNOLOGY_COMFORT_LEVELS)),
  additionalQuestions: optional(freeTextSchema(Q.additionalQuestions, TEXT_LIMITS.generic)),
  hearAboutUs: optional(choice(Q.hearAboutUs, HEAR_ABOUT_US_SOURCES)),
  preferredContactMethod: choiceWithDefault(Q.preferredContactMethod, PATIENT_CONTACT_METHODS, 'email'),
  languagePreference: choiceWithDefault(Q.languagePreference, LANGUAGE_PREFERENCES, 'english'),
  consentToContact: z.literal(true, { error: accessRequestMessage.error('consentRequired') }),
  website: honeypot,
  locale,
});
export type PatientAccessRequestInput = z.input<typeof PatientAccessRequestSchema>;
/** The free-text fields of the patient form (kept as typed, text.ts); its other text fields are short ones. */
export const PATIENT_ACCESS_REQUEST_FREE_TEXT_FIELDS = [
  'reasonForInterest',
  'currentConditions',
  'currentMedications',
  'allergies',
  'additionalQuestions',
] as const;
export type PatientAccessRequestData = z.output<typeof PatientAccessRequestSchema>;

/** What a new patient form starts with; languagePreference follows the language the site is shown in. */
export function patientAccessRequestDefaults(siteLocale: Locale = 'en') {
  return {
    preferredContactMethod: 'email',
    languagePreference: siteLocale === 'es' ? 'spanish' : 'english',
    servicesInterested: [],
    consentToContact: false,
  } as const;
}

/** True when the honeypot holds anything: the submission is a bot's. */
export function isHoneypotFilled(input: unknown): boolean {
  if (input === null || typeof input !== 'object') return false;
  const value = (input as Record<string, unknown>)[ACCESS_REQUEST_HONEYPOT_FIELD];
  if (value === undefined || value === null) return false;
  return typeof value === 'string' ? value.trim() !== '' : true;
}

/** The language of the e-mails a request causes: the patient's stated language, else the site's, else English. */
export function accessRequestLocale(
  kind: AccessRequestKind,
  data: { locale?: Locale | null | undefined; languagePreference?: string | null | undefined },
): Locale {
  if (kind === 'patient' && data.languagePreference === 'spanish') return 'es';
  if (kind === 'patient' && data.languagePreference === 'english') return 'en';
  return data.locale ?? 'en';
}

/**
 * The labels of the choice and multi-choice fields whose stored values are codes, by field; the other choice
 * fields (specialty, features, services) store their labels.
 */
export const PROVIDER_ACCESS_REQUEST_OPTION_LABELS: Partial<
  Record<keyof typeof PROVIDER_ACCESS_REQUEST_LABELS, Readonly<Record<string, string>>>
> = {
  yearsOfExperience: YEARS_OF_EXPERIENCE_LABELS,
  practiceType: PRACTICE_TYPE_LABELS,
  patientVolume: PATIENT_VOLUME_LABELS,
  referralSource: REFERRAL_SOURCE_LABELS,
  preferredContactMethod: PROVIDER_CONTACT_METHOD_LABELS,
};

export const PATIENT_ACCESS_REQUEST_OPTION_LABELS: Partial<
  Record<keyof typeof PATIENT_ACCESS_REQUEST_LABELS, Readonly<Record<string, string>>>
> = {
  preferredAppointmentTimes: PREFERRED_APPOINTMENT_TIME_LABELS,
  technologyComfort: TECHNOLOGY_COMFORT_LABELS,
  hearAboutUs: HEAR_ABOUT_US_LABELS,
  preferredContactMethod: PATIENT_CONTACT_METHOD_LABELS,
  languagePreference: LANGUAGE_PREFERENCE_LABELS,
};

/** The label of one stored option value of a request form's field; an unknown value is answered as it is. */
export function accessRequestOptionLabel(kind: AccessRequestKind, field: string, value: string): string {
  const labels: Readonly<Record<string, Readonly<Record<string, string>> | undefined>> =
    kind === 'provider' ? PROVIDER_ACCESS_REQUEST_OPTION_LABELS : PATIENT_ACCESS_REQUEST_OPTION_LABELS;
  const options = Object.hasOwn(labels, field) ? labels[field] : undefined;
  return options && Object.hasOwn(options, value) ? (options[value] ?? value) : value;
}

export const AccessRequestListFilterSchema = z.object({
  status: z
    .enum(ACCESS_REQUEST_STATUSES, { error: fieldMessage.error('chooseValidStatus') })
    .nullable()
    .optional(),
});

export const ApproveAccessRequestInputSchema = z.object({
  id: RecordIdSchema,
  /** The provider account that will own the patient record (patient requests only). */
  ownerProviderId: optional(z.uuid({ error: accessRequestMessage.error('chooseProvider') })),
});

export const DeclineAccessRequestInputSchema = z.object({
  id: RecordIdSchema,
  reason: requiredText('Reason', freeTextSchema('Reason', DECLINE_REASON_MAX_LENGTH)),
});
