import { z } from 'zod';
import { clinicalRecordMessage } from './clinical-record.ts';
import { INSTRUMENT_DEFINITIONS, INSTRUMENTS } from './measures.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * A patient's treatment plan (issue 27, point 3): the problems it addresses (diagnoses of the patient's problem
 * list), measurable goals (a score of a shared questionnaire under a target by a date), interventions, a target
 * date and a review date, and its status. Each change is a version; the provider signs a version, and the patient
 * reads the latest signed one in the portal and acknowledges it.
 */

export const TREATMENT_PLAN_STATUSES = ['active', 'completed', 'discontinued'] as const;
export type TreatmentPlanStatus = (typeof TREATMENT_PLAN_STATUSES)[number];

export const TREATMENT_PLAN_PROBLEMS_MAX = 20;
export const TREATMENT_PLAN_GOALS_MAX = 12;
export const TREATMENT_PLAN_INTERVENTIONS_MAX = 15;
export const TREATMENT_PLAN_GOAL_MAX = 300;
export const TREATMENT_PLAN_INTERVENTION_MAX = 1_000;

/**
 * A plan's date (a target, a review): YYYY-MM-DD, a real date between 1900 and 2200; unlike a clinical date it may
 * be in the future. Blank or absent is "none" (null).
 */
export const PlanDateSchema = z
  .string({ error: clinicalRecordMessage.error('dateInvalid') })
  .nullish()
  .transform((raw, ctx) => {
    const value = (raw ?? '').trim();
    if (value === '') return null;
    const match = /^\d{4}-\d{2}-\d{2}$/.exec(value);
    const date = match ? new Date(`${value}T00:00:00Z`) : null;
    if (
      !date ||
      Number.isNaN(date.getTime()) ||
      date.toISOString().slice(0, 10) !== value ||
      value < '1900-01-01' ||
      value > '2200-12-31'
    ) {
      ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('dateInvalid') });
      return z.NEVER;
    }
    return value;
  });

/**
 * A measurable goal: what it is, and optionally a questionnaire's total to get under (`targetBelow`, a whole number
 * within the instrument's range) by a date. A target needs its instrument.
 */
export const TreatmentGoalSchema = z
  .object({
    description: z
      .string({ error: clinicalRecordMessage.error('goalRequired') })
      .pipe(textSchema({ label: 'Goal', kind: 'short', max: TREATMENT_PLAN_GOAL_MAX }))
      .refine((d) => d !== '', { error: clinicalRecordMessage.error('goalRequired') }),
    instrument: z
      .enum(INSTRUMENTS, { error: clinicalRecordMessage.error('chooseInstrument') })
      .nullish()
      .transform((i) => i ?? null),
    targetBelow: z
      .number({ error: clinicalRecordMessage.error('targetInvalid') })
      .int({ error: clinicalRecordMessage.error('targetInvalid') })
      .nullish()
      .transform((n) => n ?? null),
    targetDate: PlanDateSchema,
  })
  .superRefine((goal, ctx) => {
    if (goal.targetBelow === null) return;
    if (goal.instrument === null) {
      ctx.addIssue({ code: 'custom', path: ['instrument'], ...clinicalRecordMessage.issue('targetNeedsInstrument') });
      return;
    }
    const max = INSTRUMENT_DEFINITIONS[goal.instrument].maxScore;
    if (goal.targetBelow < 1 || goal.targetBelow > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetBelow'],
        ...clinicalRecordMessage.issue('targetOutOfRange', { max }),
      });
    }
  });
export type TreatmentGoalInput = z.input<typeof TreatmentGoalSchema>;
export type TreatmentGoal = z.output<typeof TreatmentGoalSchema>;

const InterventionSchema = z
  .string({ error: clinicalRecordMessage.error('interventionRequired') })
  .pipe(textSchema({ label: 'Intervention', kind: 'free', max: TREATMENT_PLAN_INTERVENTION_MAX }))
  .transform((text) => text.trim())
  .refine((text) => text !== '', { error: clinicalRecordMessage.error('interventionRequired') });

/**
 * saveTreatmentPlan: the whole plan as the provider writes it. It becomes the plan's one open draft (a new draft
 * after a signed version, which never changes).
 */
export const SaveTreatmentPlanInputSchema = z.object({
  patientId: RecordIdSchema,
  status: z.enum(TREATMENT_PLAN_STATUSES, { error: clinicalRecordMessage.error('choosePlanStatus') }),
  problemIds: z
    .array(RecordIdSchema, { error: clinicalRecordMessage.error('problemNotPatients') })
    .max(TREATMENT_PLAN_PROBLEMS_MAX, {
      error: clinicalRecordMessage.error('tooManyItems', { max: TREATMENT_PLAN_PROBLEMS_MAX }),
    })
    .nullish()
    .transform((ids) => [...new Set(ids ?? [])]),
  goals: z
    .array(TreatmentGoalSchema)
    .max(TREATMENT_PLAN_GOALS_MAX, {
      error: clinicalRecordMessage.error('tooManyItems', { max: TREATMENT_PLAN_GOALS_MAX }),
    })
    .nullish()
    .transform((goals) => goals ?? []),
  interventions: z
    .array(InterventionSchema)
    .max(TREATMENT_PLAN_INTERVENTIONS_MAX, {
      error: clinicalRecordMessage.error('tooManyItems', { max: TREATMENT_PLAN_INTERVENTIONS_MAX }),
    })
    .nullish()
    .transform((list) => list ?? []),
  targetDate: PlanDateSchema,
  reviewDate: PlanDateSchema.refine((d) => d !== null, { error: clinicalRecordMessage.error('reviewDateRequired') }),
});
export type SaveTreatmentPlanInput = z.input<typeof SaveTreatmentPlanInputSchema>;
export type SaveTreatmentPlanData = z.output<typeof SaveTreatmentPlanInputSchema>;

/** signTreatmentPlan: the draft version, and the provider's password or authenticator code (like a note). */
export const SignTreatmentPlanInputSchema = z.object({
  id: RecordIdSchema,
  password: z.string().max(1_000).nullish(),
  code: z.string().max(20).nullish(),
});
export type SignTreatmentPlanInput = z.input<typeof SignTreatmentPlanInputSchema>;

/** A problem as the version keeps it: the diagnosis, with its code and title at the time. */
export interface TreatmentPlanProblem {
  diagnosisId: string;
  code: string;
  title: string;
}

/**
 * How far a goal with a score target is from it: `met` when the latest total is under the target, else how many
 * points are left. Null without a target or a score.
 */
export function goalProgress(
  goal: { instrument: string | null; targetBelow: number | null },
  latestTotal: number | null | undefined,
): { met: boolean; pointsToGo: number } | null {
  if (goal.instrument === null || goal.targetBelow === null || latestTotal === null || latestTotal === undefined)
    return null;
  const met = latestTotal < goal.targetBelow;
  return { met, pointsToGo: met ? 0 : latestTotal - goal.targetBelow + 1 };
}
