import { z } from 'zod';
import { messageSection } from './field-messages.ts';
import { DateOfBirthSchema, nameSchema, optional, PhoneSchema, ZipCodeSchema } from './patients.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/*
 * The intake packet (issue 28, decision 067): what a new patient tells the practice before the first visit, one
 * section per step, saved as they go, submitted to their provider, and accepted by the provider into the record.
 * Each section has its own schema, used by the step's form and again by the server; every text goes through the
 * one text rule, every list is bounded.
 */

/** The sections, in the order of the steps. `details` is always on; `questionnaires` is the last step. */
export const INTAKE_SECTIONS = [
  'details',
  'insurance',
  'pharmacy',
  'reason',
  'psychiatricHistory',
  'medicalHistory',
  'medications',
  'familyHistory',
  'substanceUse',
  'socialHistory',
  'questionnaires',
] as const;
export type IntakeSection = (typeof INTAKE_SECTIONS)[number];

/** The sections an administrator may turn off (every one but the details). */
export const OPTIONAL_INTAKE_SECTIONS = INTAKE_SECTIONS.filter(
  (s): s is Exclude<IntakeSection, 'details'> => s !== 'details',
);

export type OptionalIntakeSection = (typeof OPTIONAL_INTAKE_SECTIONS)[number];

/** The sections whose answers are history: kept as the accepted intake and shown as the patient's reported history. */
export const INTAKE_HISTORY_SECTIONS = [
  'reason',
  'psychiatricHistory',
  'medicalHistory',
  'familyHistory',
  'substanceUse',
  'socialHistory',
] as const satisfies readonly IntakeSection[];

export const INTAKE_STATUSES = ['not-started', 'in-progress', 'submitted', 'accepted'] as const;
export type IntakeStatus = (typeof INTAKE_STATUSES)[number];

export const INTAKE_LIMITS = {
  shortText: 200,
  freeText: 4000,
  medicationsMax: 30,
  allergiesMax: 20,
  pastMedicationsMax: 20,
  returnReasonMax: 500,
} as const;

export const INTAKE_MESSAGES = {
  notFound: 'Intake not found',
  cannotFill: 'Permission denied: Cannot fill in an intake',
  cannotView: 'Permission denied: Cannot view intakes',
  cannotReview: 'Permission denied: Cannot review intakes',
  sectionUnknown: 'Please choose a section of the intake',
  sectionOff: 'The practice does not use this section of the intake',
  notEditable: 'This intake was submitted and can no longer be changed',
  notSubmitted: 'This intake has not been submitted',
  alreadyAccepted: 'This intake was already accepted',
  detailsMissing: 'Please confirm your details before submitting',
  medicationNameRequired: 'Please enter the name of the medication',
  substanceRequired: 'Please enter what you are allergic to',
  returnReasonRequired: 'Please say what the patient should complete',
  tooManyItems: 'Please enter at most {{max}} items',
  chooseChoice: 'Please choose "current" or "reported" for each field',
  cardSideInvalid: 'Please choose the front or the back of the card',
  cardPhotoNotFound: 'Card photo not found',
  sectionsRequired: 'Please choose the sections of the intake',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const intakeMessage = messageSection('intakeMessages', INTAKE_MESSAGES);

const L = INTAKE_LIMITS;

/** An optional one-line answer: blank is null. */
function shortAnswer(label: string, max: number = L.shortText) {
  return optional(textSchema({ label, kind: 'short', max }));
}
/** An optional free-text answer (kept as typed): blank is null. */
function freeAnswer(label: string, max: number = L.freeText) {
  return optional(textSchema({ label, kind: 'free', max }));
}
function boundedList<T extends z.ZodType>(item: T, max: number) {
  return z
    .array(item)
    .max(max, { error: intakeMessage.error('tooManyItems', { max }) })
    .nullish()
    .transform((list) => list ?? []);
}
/** A required one-line text (the item of a list is nothing without it). */
function requiredShort(label: string, messageKey: keyof typeof INTAKE_MESSAGES, max: number = L.shortText) {
  return z
    .string({ error: intakeMessage.error(messageKey) })
    .pipe(textSchema({ label, kind: 'short', max }))
    .refine((value) => value !== '', { error: intakeMessage.error(messageKey) });
}

/** Confirmation of the patient's details and emergency contact (prefilled from the patient record). */
export const IntakeDetailsSchema = z.object({
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
  dateOfBirth: DateOfBirthSchema,
  phone: optional(PhoneSchema),
  street: shortAnswer('Street address'),
  city: shortAnswer('City', 100),
  state: shortAnswer('State', 50),
  zipCode: optional(ZipCodeSchema),
  emergencyContactName: shortAnswer('Emergency contact name', 100),
  emergencyContactPhone: optional(PhoneSchema),
});

export const IntakeInsuranceSchema = z.object({
  company: shortAnswer('Insurance company', 100),
  memberId: shortAnswer('Member id', 50),
  groupNumber: shortAnswer('Group number', 50),
});

export const IntakePharmacySchema = z.object({
  name: shortAnswer('Pharmacy name'),
  phone: optional(PhoneSchema),
  address: shortAnswer('Pharmacy address'),
});

export const IntakeReasonSchema = z.object({ reason: freeAnswer('Reason for seeking care') });

export const IntakePastMedicationSchema = z.object({
  name: requiredShort('Medication', 'medicationNameRequired'),
  response: shortAnswer('How it worked', 500),
});

export const IntakePsychiatricHistorySchema = z.object({
  diagnoses: freeAnswer('Past diagnoses'),
  hospitalisations: freeAnswer('Hospitalisations'),
  pastMedications: boundedList(IntakePastMedicationSchema, L.pastMedicationsMax),
});

export const IntakeMedicalHistorySchema = z.object({ conditions: freeAnswer('Medical history') });

export const IntakeMedicationSchema = z.object({
  name: requiredShort('Medication', 'medicationNameRequired'),
  dose: shortAnswer('Dose', 100),
  frequency: shortAnswer('How often', 100),
});
export type IntakeMedication = z.output<typeof IntakeMedicationSchema>;

export const IntakeAllergySchema = z.object({
  substance: requiredShort('Substance', 'substanceRequired'),
  reaction: shortAnswer('Reaction'),
});
export type IntakeAllergy = z.output<typeof IntakeAllergySchema>;

export const IntakeMedicationsSchema = z.object({
  medications: boundedList(IntakeMedicationSchema, L.medicationsMax),
  allergies: boundedList(IntakeAllergySchema, L.allergiesMax),
});

export const IntakeFamilyHistorySchema = z.object({ history: freeAnswer('Family history') });

export const IntakeSubstanceUseSchema = z.object({
  alcohol: freeAnswer('Alcohol', 1000),
  tobacco: freeAnswer('Tobacco or nicotine', 1000),
  drugs: freeAnswer('Other substances', 1000),
});

export const IntakeSocialHistorySchema = z.object({
  living: freeAnswer('Living situation', 1000),
  work: freeAnswer('Work or school', 1000),
  support: freeAnswer('Support and relationships', 1000),
});

export const IntakeQuestionnairesSchema = z.object({});

/** Each section's schema. */
export const INTAKE_SECTION_SCHEMAS = {
  details: IntakeDetailsSchema,
  insurance: IntakeInsuranceSchema,
  pharmacy: IntakePharmacySchema,
  reason: IntakeReasonSchema,
  psychiatricHistory: IntakePsychiatricHistorySchema,
  medicalHistory: IntakeMedicalHistorySchema,
  medications: IntakeMedicationsSchema,
  familyHistory: IntakeFamilyHistorySchema,
  substanceUse: IntakeSubstanceUseSchema,
  socialHistory: IntakeSocialHistorySchema,
  questionnaires: IntakeQuestionnairesSchema,
} as const satisfies Record<IntakeSection, z.ZodType>;

export type IntakeAnswers = { [S in IntakeSection]?: z.output<(typeof INTAKE_SECTION_SCHEMAS)[S]> };
export type IntakeSectionInput<S extends IntakeSection> = z.input<(typeof INTAKE_SECTION_SCHEMAS)[S]>;

/** The section a step names. */
export const IntakeSectionSchema = z.enum(INTAKE_SECTIONS, { error: intakeMessage.error('sectionUnknown') });

/**
 * saveIntakeSection: one section's answers (checked by that section's schema) and the step to come back to.
 * The answers are parsed by the section's schema afterwards (`parseIntakeSection`).
 */
export const SaveIntakeSectionInputSchema = z.object({
  /** The patient's own record (myIntake's patientId). */
  patientId: RecordIdSchema,
  section: IntakeSectionSchema,
  answers: z.record(z.string(), z.unknown()),
  /** The step the patient goes on to (where they come back to). */
  nextSection: IntakeSectionSchema.nullish().transform((s) => s ?? null),
});

/** submitIntake, requestIntakeQuestionnaires: the patient's own record. */
export const PatientIntakeInputSchema = z.object({ patientId: RecordIdSchema });

/** Parses one section's answers by its schema; throws the schema's error. */
export function parseIntakeSection<S extends IntakeSection>(section: S, answers: unknown) {
  return INTAKE_SECTION_SCHEMAS[section].parse(answers) as z.output<(typeof INTAKE_SECTION_SCHEMAS)[S]>;
}

/** The fields of the patient record the details section reports, in the order the comparison shows them. */
export const INTAKE_DETAIL_FIELDS = [
  'firstName',
  'lastName',
  'dateOfBirth',
  'phone',
  'street',
  'city',
  'state',
  'zipCode',
  'emergencyContactName',
  'emergencyContactPhone',
] as const;
export type IntakeDetailField = (typeof INTAKE_DETAIL_FIELDS)[number];

/** For a field that differs: keep what the record holds, or take what the patient reported. */
export const INTAKE_FIELD_CHOICES = ['current', 'reported'] as const;
export type IntakeFieldChoice = (typeof INTAKE_FIELD_CHOICES)[number];

/**
 * The default choice for a field that differs: fill an empty field, keep what is there (decision 067).
 */
export function defaultIntakeFieldChoice(current: string | null | undefined): IntakeFieldChoice {
  return current == null || current === '' ? 'reported' : 'current';
}

/** acceptIntake: the intake and, per differing detail field, which value to keep (left out: the default). */
export const AcceptIntakeInputSchema = z.object({
  intakeId: RecordIdSchema,
  choices: z
    .array(
      z.object({
        field: z.enum(INTAKE_DETAIL_FIELDS, { error: intakeMessage.error('chooseChoice') }),
        choice: z.enum(INTAKE_FIELD_CHOICES, { error: intakeMessage.error('chooseChoice') }),
      }),
    )
    .max(INTAKE_DETAIL_FIELDS.length)
    .nullish()
    .transform((c) => c ?? []),
});
export type AcceptIntakeInput = z.input<typeof AcceptIntakeInputSchema>;

/** returnIntake: the intake and a short reason the patient reads ("please complete the medications"). */
export const ReturnIntakeInputSchema = z.object({
  intakeId: RecordIdSchema,
  reason: z
    .string({ error: intakeMessage.error('returnReasonRequired') })
    .pipe(textSchema({ label: 'Reason', kind: 'free', max: L.returnReasonMax }))
    .refine((r) => r !== '', { error: intakeMessage.error('returnReasonRequired') }),
});
export type ReturnIntakeInput = z.input<typeof ReturnIntakeInputSchema>;

export const INTAKE_CARD_SIDES = ['front', 'back'] as const;
export type IntakeCardSide = (typeof INTAKE_CARD_SIDES)[number];
export const IntakeCardSideSchema = z.enum(INTAKE_CARD_SIDES, { error: intakeMessage.error('cardSideInvalid') });

/** Where the insurance card's photos are uploaded (POST `/:side`) and read (GET `/:id`). */
export const INTAKE_CARD_PHOTOS_PATH = '/api/intake/card-photos';

/** The intake sections setting: the optional sections the practice uses (details is always on). */
export const IntakeSectionsSettingSchema = z
  .array(z.enum(OPTIONAL_INTAKE_SECTIONS, { error: intakeMessage.error('sectionsRequired') }), {
    error: intakeMessage.error('sectionsRequired'),
  })
  .transform((sections) => OPTIONAL_INTAKE_SECTIONS.filter((s) => sections.includes(s)));

/** The steps of an intake for a practice's setting: details first, then the sections in use, in order. */
export function intakeSteps(enabled: readonly string[]): IntakeSection[] {
  return INTAKE_SECTIONS.filter((s) => s === 'details' || enabled.includes(s));
}

/**
 * The key by which a reported medication meets the list: the catalogue's generic when the name is in the
 * catalogue, else the name in lower case with its spaces folded.
 */
export function reportedMedicationKey(name: string, catalogueGeneric: string | null): string {
  return (catalogueGeneric ?? name).trim().toLowerCase().replace(/\s+/g, ' ');
}
