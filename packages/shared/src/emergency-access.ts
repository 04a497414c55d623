import { messageSection } from './field-messages.ts';
import { z } from 'zod';
import { DateOfBirthSchema } from './patients.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * Emergency access ("break the glass", decision 036): a provider opens, for a limited time and after giving a
 * reason, the record of a patient they may not see otherwise. Every use alerts the administrators, who review it.
 * Psychotherapy notes stay closed even then; the access reads, it does not write.
 */
export const EMERGENCY_ACCESS_MESSAGES = {
  reasonRequired: 'Please give the reason for the emergency access',
  identityRequired: "Please give the patient's first name, last name and date of birth",
  reasonTooShort: 'Please describe the emergency in at least 20 characters',
  chooseOutcome: 'Please choose whether the access was appropriate',
  noteRequired: 'Please explain why the access was inappropriate',
  noMatch: 'No single patient matches this name and date of birth. Check them, or ask the practice for help.',
  alreadyReached: 'You can already see this patient: open the chart from your patient list.',
  notFound: 'Emergency access not found',
  alreadyReviewed: 'This emergency access has already been reviewed',
  cannotRequest: 'Permission denied: Only a provider can use emergency access',
  cannotReview: 'Permission denied: Only an administrator reviews emergency access',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const emergencyAccessMessage = messageSection('emergencyAccessMessages', EMERGENCY_ACCESS_MESSAGES);

/** The reason's shortest length: a few words that say what the emergency is, not "x". */
export const EMERGENCY_REASON_MIN = 20;
export const EMERGENCY_REASON_MAX = 1000;
export const EMERGENCY_REVIEW_NOTE_MAX = 2000;
/** How long a grant lasts by default (EMERGENCY_ACCESS_MINUTES). */
export const EMERGENCY_ACCESS_MINUTES = 60;

export const EMERGENCY_REVIEW_OUTCOMES = ['appropriate', 'inappropriate'] as const;
export type EmergencyReviewOutcome = (typeof EMERGENCY_REVIEW_OUTCOMES)[number];

const ReasonSchema = z
  .string({ error: emergencyAccessMessage.error('reasonRequired') })
  .pipe(textSchema({ label: 'Reason', kind: 'free', max: EMERGENCY_REASON_MAX }))
  .refine((v) => v.length > 0, { error: emergencyAccessMessage.error('reasonRequired') })
  .refine((v) => v.length === 0 || v.length >= EMERGENCY_REASON_MIN, {
    error: emergencyAccessMessage.error('reasonTooShort'),
  });

const NameSchema = textSchema({ label: 'Name', kind: 'short', max: 100 });

/**
 * requestEmergencyAccess, and the provider's dialog: the patient by id (from a chart the provider was refused),
 * or by their exact first and last name and date of birth (decision 036: nobody browses patients to find one).
 */
export const RequestEmergencyAccessInputSchema = z
  .object({
    patientId: RecordIdSchema.nullish().transform((v) => v || null),
    firstName: NameSchema.nullish().transform((v) => v || null),
    lastName: NameSchema.nullish().transform((v) => v || null),
    dateOfBirth: DateOfBirthSchema.nullish().transform((v) => v || null),
    reason: ReasonSchema,
  })
  .superRefine((input, ctx) => {
    if (input.patientId) return;
    for (const field of ['firstName', 'lastName', 'dateOfBirth'] as const) {
      if (!input[field])
        ctx.addIssue({ code: 'custom', ...emergencyAccessMessage.issue('identityRequired'), path: [field] });
    }
  });
export type RequestEmergencyAccessInput = z.input<typeof RequestEmergencyAccessInputSchema>;

/** The reason alone, for the dialog's field. */
export const EmergencyReasonSchema = ReasonSchema;

/** reviewEmergencyAccess: the administrator's outcome; an inappropriate access says why. */
export const ReviewEmergencyAccessInputSchema = z
  .object({
    id: RecordIdSchema,
    outcome: z.enum(EMERGENCY_REVIEW_OUTCOMES, { error: emergencyAccessMessage.error('chooseOutcome') }),
    note: textSchema({ label: 'Note', kind: 'free', max: EMERGENCY_REVIEW_NOTE_MAX })
      .nullish()
      .transform((v) => v || null),
  })
  .superRefine((input, ctx) => {
    if (input.outcome === 'inappropriate' && !input.note) {
      ctx.addIssue({ code: 'custom', ...emergencyAccessMessage.issue('noteRequired'), path: ['note'] });
    }
  });
export type ReviewEmergencyAccessInput = z.input<typeof ReviewEmergencyAccessInputSchema>;

/** The review list's filter. */
export const EMERGENCY_REVIEW_FILTERS = ['awaiting', 'reviewed', 'all'] as const;
export type EmergencyReviewFilter = (typeof EMERGENCY_REVIEW_FILTERS)[number];
