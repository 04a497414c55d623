import { messageSection } from './field-messages.ts';
import { passwordMessage, PasswordSchema, PASSWORD_MAX_LENGTH } from './auth.ts';
import { z } from 'zod';
import { LOCALES } from './options.ts';
import { PhoneSchema } from './patients.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * The patient portal's My Records, Who viewed my record and My account (issue 15, decision 031): the messages the
 * server may answer, the inputs' schemas (form and server), and the access log's kinds of access.
 */
export const PORTAL_RECORD_MESSAGES = {
  noRecord: 'No patient record is linked to your account yet. Please contact the practice.',
  correctionNotFound: 'Correction request not found',
  correctionAnswered: 'This correction request has already been answered',
  declineNeedsReason: 'Please give the reason for declining',
  chooseField: 'Please choose what should be corrected',
  requestRequired: 'Please describe the correction',
  cannotRequestCorrection: 'Permission denied: Only a patient can ask for a correction of their own record',
  cannotReviewCorrections: 'Permission denied: Cannot review correction requests',
  cannotShare: 'Permission denied: Only the author or the patient’s provider can share a note',
  cannotReadShared: 'Permission denied: Only the patient reads the notes shared with them',
  cannotReadAccessLog: 'Permission denied: Only the patient sees who viewed their record',
  psychotherapyNeverShared: 'A psychotherapy note can never be shared with the patient',
  shareSignedOnly: 'Only a signed note about a patient can be shared',
  sharedNoteNotFound: 'Shared note not found',
  wrongCurrentPassword: 'The current password is not correct',
  samePassword: 'The new password must be different from the current one',
  currentPasswordRequired: 'Please enter your current password',
  nameRequired: 'Please enter your first and last name',
  nameThroughPractice: 'Your name on your record is changed by the practice: ask for a correction in My Records',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const portalRecordMessage = messageSection('portalRecordMessages', PORTAL_RECORD_MESSAGES);

/** The practice answers a request to amend within 60 days (45 CFR 164.526(b)(2)); the portal shows the date. */
export const CORRECTION_RESPONSE_DAYS = 60;
export const CORRECTION_TEXT_MAX = 2000;

/** What a correction is about: parts of the record as the patient sees it in My Records. */
export const CORRECTION_FIELDS = [
  'name',
  'dateOfBirth',
  'contact',
  'address',
  'emergencyContact',
  'insurance',
  'clinical',
  'other',
] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];
export const CORRECTION_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

const CorrectionTextSchema = textSchema({ label: 'Correction', kind: 'free', max: CORRECTION_TEXT_MAX });

/** requestRecordCorrection, and the patient's form. */
export const CorrectionRequestInputSchema = z.object({
  field: z.enum(CORRECTION_FIELDS, { error: portalRecordMessage.error('chooseField') }),
  request: z
    .string({ error: portalRecordMessage.error('requestRequired') })
    .pipe(CorrectionTextSchema)
    .refine((v) => v.length > 0, { error: portalRecordMessage.error('requestRequired') }),
});
export type CorrectionRequestInput = z.input<typeof CorrectionRequestInputSchema>;

/** answerRecordCorrection: accepted or declined; a decline says why (the patient reads it). */
export const AnswerCorrectionInputSchema = z
  .object({
    id: RecordIdSchema,
    decision: z.enum(['accepted', 'declined']),
    response: CorrectionTextSchema.nullish().transform((v) => v || null),
  })
  .superRefine((input, ctx) => {
    if (input.decision === 'declined' && !input.response) {
      ctx.addIssue({ code: 'custom', ...portalRecordMessage.issue('declineNeedsReason'), path: ['response'] });
    }
  });
export type AnswerCorrectionInput = z.input<typeof AnswerCorrectionInputSchema>;

/** changePassword: the current password (checked like a sign-in) and a new one under the policy. */
export const ChangePasswordInputSchema = z
  .object({
    currentPassword: z
      .string({ error: portalRecordMessage.error('currentPasswordRequired') })
      .min(1, { error: portalRecordMessage.error('currentPasswordRequired') })
      .max(PASSWORD_MAX_LENGTH, { error: passwordMessage.error('tooLong') }),
    newPassword: PasswordSchema,
  })
  .superRefine((input, ctx) => {
    if (input.currentPassword === input.newPassword) {
      ctx.addIssue({ code: 'custom', ...portalRecordMessage.issue('samePassword'), path: ['newPassword'] });
    }
  });
export type ChangePasswordInput = z.input<typeof ChangePasswordInputSchema>;

const NamePartSchema = textSchema({ label: 'Name', kind: 'short', max: 100 });

/**
 * updateMyAccount: what a person changes themselves (decision 031). Everyone: the language. Staff: their name.
 * A patient: their phone (the record's); their name, date of birth and e-mail go through the practice.
 */
export const UpdateMyAccountInputSchema = z.object({
  language: z.enum(LOCALES).nullish(),
  firstName: NamePartSchema.nullish(),
  lastName: NamePartSchema.nullish(),
  phone: z
    .string()
    .nullish()
    .transform((v) => (v == null ? v : v.trim()))
    .pipe(z.union([z.literal(''), PhoneSchema]).nullish()),
});
export type UpdateMyAccountInput = z.input<typeof UpdateMyAccountInputSchema>;

/**
 * Who viewed my record: each audit event the patient may see, as a kind of access with a label in the browser
 * (recordAccess.kinds.* in both languages). An event not listed shows as `other` ("worked on your record").
 */
export const RECORD_ACCESS_KINDS = {
  PATIENT_VIEW: 'viewed',
  PATIENT_CHART_VIEW: 'chartViewed',
  PATIENT_CREATE: 'created',
  PATIENT_UPDATE: 'updated',
  PATIENT_DELETE: 'deleted',
  MEDICAL_RECORD_ACCESS: 'noteRead',
  // A psychotherapy note shows as any note (decision 031): read, or written.
  PSYCHOTHERAPY_NOTE_ACCESS: 'noteRead',
  NOTE_CREATE: 'noteWritten',
  NOTE_UPDATE: 'noteWritten',
  NOTE_SIGN: 'noteSigned',
  NOTE_UNLOCK: 'noteWritten',
  NOTE_ADDENDUM: 'noteWritten',
  NOTE_DELETE: 'noteWritten',
  NOTE_SHARE: 'noteShared',
  NOTE_UNSHARE: 'noteUnshared',
  RECORDING_PLAY: 'recordingPlayed',
  RECORDING_DELETED: 'recordingDeleted',
  QUESTIONNAIRE_SENT: 'questionnaireSent',
  QUESTIONNAIRE_SCHEDULED: 'questionnaireSent',
  QUESTIONNAIRE_VIEW: 'questionnaireViewed',
  SAFETY_ALERT_VIEW: 'alertViewed',
  CLINICAL_RECORD_VIEW: 'clinicalRecordViewed',
  DIAGNOSIS_ADD: 'clinicalRecordChanged',
  DIAGNOSIS_UPDATE: 'clinicalRecordChanged',
  MEDICATION_START: 'clinicalRecordChanged',
  MEDICATION_CHANGE: 'clinicalRecordChanged',
  ALLERGY_ADD: 'clinicalRecordChanged',
  ALLERGY_REMOVE: 'clinicalRecordChanged',
  INTAKE_VIEW: 'clinicalRecordViewed',
  INTAKE_ACCEPT: 'clinicalRecordChanged',
  INTAKE_RETURN: 'clinicalRecordChanged',
  TREATMENT_PLAN_SAVE: 'clinicalRecordChanged',
  TREATMENT_PLAN_SIGN: 'clinicalRecordChanged',
  SAFETY_ALERT_ACKNOWLEDGED: 'alertAcknowledged',
  APPOINTMENT_VIEW: 'appointmentViewed',
  APPOINTMENT_CREATE: 'appointmentBooked',
  APPOINTMENT_UPDATE: 'appointmentChanged',
  VIDEO_JOIN: 'videoVisit',
  VIDEO_ADMIT: 'videoVisit',
  VIDEO_END: 'videoVisit',
  RECORD_CORRECTION_VIEW: 'correctionViewed',
  RECORD_CORRECTION_ANSWERED: 'correctionAnswered',
  // Secure messages (decision 029): the patient's conversations are part of what the practice reads about them.
  MESSAGE_LIST_VIEW: 'messagesViewed',
  MESSAGE_THREAD_VIEW: 'messagesViewed',
  MESSAGE_READ: 'messagesViewed',
  CONVERSATION_START: 'messageSent',
  MESSAGE_SEND: 'messageSent',
  MESSAGE_ATTACHMENT_DOWNLOAD: 'attachmentDownloaded',
  PRACTICE_DOCUMENT_VIEW: 'documentsViewed',
  PRACTICE_DOCUMENT_DOWNLOAD: 'documentsViewed',
  PRACTICE_DOCUMENT_PAPER_RECORDED: 'documentSigned',
  PRACTICE_DOCUMENT_SIGN: 'documentSigned',
  // Billing (decision 073): a visit's coding or the ledger read; a visit coded, a payment, an adjustment, a reversal.
  VISIT_CODING_VIEW: 'billingViewed',
  LEDGER_VIEW: 'billingViewed',
  VISIT_CODED: 'billingChanged',
  PAYMENT_RECORDED: 'billingChanged',
  ADJUSTMENT_RECORDED: 'billingChanged',
  LEDGER_ENTRY_REVERSED: 'billingChanged',
  // A superbill or a statement downloaded (by staff or the patient), a statement's e-mail sent.
  SUPERBILL_DOWNLOAD: 'billingViewed',
  STATEMENT_DOWNLOAD: 'billingViewed',
  STATEMENT_SENT: 'billingChanged',
  UNAUTHORIZED_ACCESS: 'refused',
} as const satisfies Record<string, string>;
export type RecordAccessKind = (typeof RECORD_ACCESS_KINDS)[keyof typeof RECORD_ACCESS_KINDS] | 'listed' | 'other';

/** The kind of access an audit entry shows as; an entry that named several patients shows as `listed`. */
export function recordAccessKind(event: string, patientCount: number): RecordAccessKind {
  if (patientCount > 1) return 'listed';
  return (RECORD_ACCESS_KINDS as Readonly<Record<string, RecordAccessKind>>)[event] ?? 'other';
}

export const RECORD_ACCESS_PAGE_SIZE = 25;
