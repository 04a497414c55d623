import { z } from 'zod';
import { messageSection } from './field-messages.ts';
import type { IntakeStatus } from './intake.ts';

/*
 * "Before your first visit" (issue 28, decision 068): what a new patient still has to do in the portal (documents to
 * sign, the intake, questionnaires), the e-mail and reminders that say so without any health information, and the
 * badges staff see on the calendar and the chart.
 */

export const FIRST_VISIT_MESSAGES = {
  cannotView: 'Permission denied: Cannot view the checklist before the first visit',
  cannotViewReadiness: "Permission denied: Cannot view patients' readiness",
  patientIdInvalid: 'Please choose patients',
  tooManyPatients: 'Please ask for at most {{max}} patients at a time',
} as const;

export const firstVisitMessage = messageSection('firstVisitMessages', FIRST_VISIT_MESSAGES);

/** The most patients one readiness question may name (a week of a busy calendar). */
export const MAX_READINESS_PATIENTS = 200;

/** At most this many e-mails about the first visit: the first one and two reminders. */
export const FIRST_VISIT_MAX_REMINDERS = 3;
/** Days between the e-mails about the first visit. */
export const FIRST_VISIT_REMINDER_DAYS = 2;

/** The patients whose readiness the calendar asks for, each once. */
export const PatientReadinessInputSchema = z.object({
  patientIds: z
    .array(z.uuid({ error: firstVisitMessage.error('patientIdInvalid') }))
    .max(MAX_READINESS_PATIENTS, {
      error: firstVisitMessage.error('tooManyPatients', { max: MAX_READINESS_PATIENTS }),
    })
    .transform((ids) => [...new Set(ids)]),
});
export type PatientReadinessInput = z.infer<typeof PatientReadinessInputSchema>;

/** The kinds of item on the patient's list. */
export const FIRST_VISIT_ITEM_KINDS = ['document', 'intake', 'questionnaire'] as const;
export type FirstVisitItemKind = (typeof FIRST_VISIT_ITEM_KINDS)[number];

/** Whether the intake is still something for the patient to do ("submitted" waits for the provider). */
export function intakeOutstandingForPatient(status: IntakeStatus): boolean {
  return status === 'not-started' || status === 'in-progress';
}

/** The staff's badge of an intake: incomplete (the patient's turn), to review (the provider's turn), or none. */
export type IntakeBadge = 'incomplete' | 'to-review' | null;
export function intakeBadgeOf(status: IntakeStatus): IntakeBadge {
  if (status === 'submitted') return 'to-review';
  if (status === 'accepted') return null;
  return 'incomplete';
}
