import { z } from 'zod';
import { messageSection } from './field-messages.ts';
import { todayIsoDate } from './patients.ts';
import { OptionalBooleanSchema, RecordIdSchema, textSchema } from './text.ts';

/**
 * The psychiatric record (issue 27, decision 062): a patient's diagnoses (the problem list), medications and
 * structured allergies, kept by their provider, read by the patient in the portal. This file holds what the
 * record's parts share (their messages, the ICD-10-CM code's shape, a clinical date) and the diagnoses' rules.
 */

/** The record's messages (`clinicalRecordMessages.*`), for every part of it. */
export const CLINICAL_RECORD_MESSAGES = {
  cannotView: 'You do not have permission to view this clinical record',
  cannotWrite: 'Only the patient’s provider can change their clinical record.',
  diagnosisNotFound: 'Diagnosis not found',
  codeRequired: 'Please enter an ICD-10-CM code',
  codeInvalid: 'Enter an ICD-10-CM code such as F32.9 or F41.1',
  titleRequired: 'This code is not in the product’s list: please write its title',
  chooseStatus: 'Please choose a status',
  dateInvalid: 'Please enter a valid date',
  dateInFuture: 'The date cannot be in the future',
  alreadyOnList: 'This code is already on the patient’s problem list. Change that entry instead.',
  searchTooLong: 'Search is too long',
  medicationNotFound: 'Medication not found',
  drugNameRequired: 'Please enter the medication',
  doseAmountInvalid: 'Enter the dose as a number above 0',
  chooseUnit: 'Please choose a unit',
  chooseRoute: 'Please choose a route',
  chooseFrequency: 'Please choose how often',
  chooseForm: 'Please choose a form',
  chooseClass: 'Please choose a drug class',
  chooseChange: 'Please choose what changed',
  quantityInvalid: 'Enter the quantity as a whole number from 0 to {{max}}',
  refillsInvalid: 'Enter the refills as a whole number from 0 to {{max}}',
  reasonRequired: 'Please write why',
  stoppedCannotChange: 'This medication is stopped. Start it again as a new medication.',
  notHeld: 'Only a held medication can be resumed.',
  alreadyHeld: 'This medication is already held.',
  dateBeforeStart: 'The date cannot be before the medication was started ({{date}}).',
  dateBeforeLastChange: 'The date cannot be before the last change ({{date}}).',
  indicationNotPatients: 'The indication must be one of this patient’s diagnoses.',
  noteNotPatients: 'The note must be one of your notes about this patient.',
  allergyNotFound: 'Allergy not found',
  substanceRequired: 'Please enter the substance',
  chooseSeverity: 'Please choose a severity',
  chooseCategory: 'Please choose a category',
  allergyAlreadyRemoved: 'This allergy is already removed.',
  allergyAlreadyListed: 'This substance is already on the patient’s allergy list.',
  treatmentPlanNotFound: 'Treatment plan not found',
  goalRequired: 'Please describe the goal',
  chooseInstrument: 'Please choose a questionnaire',
  targetInvalid: 'Enter the target as a whole number',
  targetNeedsInstrument: 'Choose the questionnaire the target score is for',
  targetOutOfRange: 'Enter a target score from 1 to {{max}}',
  interventionRequired: 'Please write the intervention',
  choosePlanStatus: 'Please choose the plan’s status',
  reviewDateRequired: 'Please enter a review date',
  tooManyItems: 'A plan holds at most {{max}} of these',
  problemNotPatients: 'Each problem must be one of this patient’s diagnoses.',
  planAlreadySigned: 'This version of the plan is already signed. Edit the plan to start a new version.',
  planNotLatest: 'A newer version of this plan exists.',
  planNotSigned: 'Only a signed plan can be acknowledged.',
  planAlreadyAcknowledged: 'You have already acknowledged this plan.',
  cannotAcknowledgePlan: 'Only the patient can acknowledge their treatment plan.',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const clinicalRecordMessage = messageSection('clinicalRecordMessages', CLINICAL_RECORD_MESSAGES);

/**
 * The shape of an ICD-10-CM code as it is written, with its dot: a letter, a letter or digit (a digit but for the
 * QA0 category FY2026 added), a letter or digit, then optionally a dot and one to four letters or digits (F32.9,
 * F32.A, F10.20, F01.511, Z63.0). Upper case. Whether the code is in the product's list is a separate question
 * (`@telehealth/shared/icd10cm`).
 */
export const ICD10_CODE_PATTERN = /^[A-Z][0-9A-Z][0-9A-Z](\.[0-9A-Z]{1,4})?$/;

/** A typed code as the list writes it: trimmed, upper case, with the dot after the third character. */
export function normalizeIcd10Code(input: string): string {
  const compact = input.trim().toUpperCase().replace(/\s+/g, '');
  if (compact.includes('.') || compact.length <= 3) return compact;
  return `${compact.slice(0, 3)}.${compact.slice(3)}`;
}

/** The diagnosis' status on the problem list. */
export const DIAGNOSIS_STATUSES = ['active', 'in-remission', 'resolved', 'rule-out'] as const;
export type DiagnosisStatus = (typeof DIAGNOSIS_STATUSES)[number];

/** A status that counts as a current problem (shown first, and in the note's side panel). */
export const CURRENT_DIAGNOSIS_STATUSES: readonly DiagnosisStatus[] = ['active', 'in-remission', 'rule-out'];

export const DIAGNOSIS_TITLE_MAX = 250;
export const DIAGNOSIS_COMMENT_MAX = 2_000;
export const DIAGNOSIS_SEARCH_MAX = 100;

/** A code as a caller sends it: normalised, then of ICD-10-CM's shape. */
export const Icd10CodeSchema = z
  .string({ error: clinicalRecordMessage.error('codeRequired') })
  .transform(normalizeIcd10Code)
  .superRefine((code, ctx) => {
    if (code === '') return void ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('codeRequired') });
    if (!ICD10_CODE_PATTERN.test(code)) ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('codeInvalid') });
  });

/**
 * A clinical date (an onset, a start): YYYY-MM-DD, a real date, not after today. Blank or absent is "not known"
 * (null). Today is the caller's UTC day, the same rule as a date of birth.
 */
export const PastDateSchema = z
  .string({ error: clinicalRecordMessage.error('dateInvalid') })
  .nullish()
  .transform((raw, ctx) => {
    const value = (raw ?? '').trim();
    if (value === '') return null;
    const match = /^\d{4}-\d{2}-\d{2}$/.exec(value);
    const date = match ? new Date(`${value}T00:00:00Z`) : null;
    if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
      ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('dateInvalid') });
      return z.NEVER;
    }
    if (value > todayIsoDate()) {
      ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('dateInFuture') });
      return z.NEVER;
    }
    return value;
  });

const DiagnosisTitleSchema = textSchema({ label: 'Title', kind: 'short', max: DIAGNOSIS_TITLE_MAX });
const DiagnosisCommentSchema = textSchema({ label: 'Comment', kind: 'free', max: DIAGNOSIS_COMMENT_MAX });

const diagnosisFields = {
  status: z.enum(DIAGNOSIS_STATUSES, { error: clinicalRecordMessage.error('chooseStatus') }),
  onsetDate: PastDateSchema,
  primary: OptionalBooleanSchema.transform((v) => v ?? false),
  comment: DiagnosisCommentSchema.nullish().transform((c) => (c ? c.trim() : null)),
};

/**
 * addDiagnosis: the code (in the product's list, whose official title the server fills in; or another code of
 * ICD-10-CM's shape, with the title the provider writes, shown with a warning), status, onset, primary, comment.
 */
export const AddDiagnosisInputSchema = z.object({
  patientId: RecordIdSchema,
  code: Icd10CodeSchema,
  title: DiagnosisTitleSchema.nullish().transform((t) => t || null),
  ...diagnosisFields,
});
export type AddDiagnosisInput = z.input<typeof AddDiagnosisInputSchema>;
export type AddDiagnosisData = z.output<typeof AddDiagnosisInputSchema>;

/** updateDiagnosis: the entry's status, onset, primary and comment (its code stays; a new code is a new entry). */
export const UpdateDiagnosisInputSchema = z.object({ id: RecordIdSchema, ...diagnosisFields });
export type UpdateDiagnosisInput = z.input<typeof UpdateDiagnosisInputSchema>;
export type UpdateDiagnosisData = z.output<typeof UpdateDiagnosisInputSchema>;

/** What the code picker looks for: a code's start ("F32", "f41.1") or words of a title ("major depress"). */
export const DiagnosisCodeSearchSchema = textSchema({ label: 'Search', kind: 'search', max: DIAGNOSIS_SEARCH_MAX });
