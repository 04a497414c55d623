import { z } from 'zod';
import { messageSection } from './field-messages.ts';
import { INSTRUMENTS, type Instrument } from './measures.ts';
import { checkReportPeriod, reportPeriodFields } from './reports.ts';
import { RecordIdSchema } from './text.ts';

/**
 * The practice's outcomes in measurement-based care (issue 27, point 5; decision 064): for a period, the share of
 * patients whose score dropped by half from their baseline (response) and whose score fell below the instrument's
 * remission cut-off (remission), by provider, by primary diagnosis and by medication class started. Computed by
 * PostgreSQL; these are the definitions it is given.
 */

/**
 * The instruments response and remission are defined for, and their cut-offs (the published ones): a baseline at
 * or above `baselineMin` ("clinically significant", moderate or worse) is counted; a follow-up below
 * `remissionBelow` is remission. Another instrument of INSTRUMENTS has no outcome until it has its line here.
 */
export const OUTCOME_THRESHOLDS = {
  phq9: { baselineMin: 10, remissionBelow: 5 },
  gad7: { baselineMin: 10, remissionBelow: 5 },
} as const satisfies Partial<Record<Instrument, { baselineMin: number; remissionBelow: number }>>;
export type OutcomeInstrument = keyof typeof OUTCOME_THRESHOLDS;

/** OUTCOME_THRESHOLDS' instruments, in the order of INSTRUMENTS. */
export const OUTCOME_INSTRUMENTS: readonly OutcomeInstrument[] = INSTRUMENTS.filter(
  (instrument): instrument is OutcomeInstrument => instrument in OUTCOME_THRESHOLDS,
);

/** Response: the follow-up is at most this share of the baseline (a drop of at least 50 %). */
export const OUTCOME_RESPONSE_SHARE = 0.5;
/** The follow-up is taken at least this many days after the baseline (a first follow-up after about a month). */
export const OUTCOME_MIN_FOLLOW_UP_DAYS = 28;
/** A medication counts as started for an episode from this many days before its baseline up to its follow-up. */
export const OUTCOME_MEDICATION_LOOKBACK_DAYS = 90;
/** A group of fewer patients is "too few to read": its count is shown, its rates are not. */
export const OUTCOME_MIN_GROUP_PATIENTS = 5;
/** The statuses of a problem-list entry that make it the patient's primary diagnosis for the outcomes. */
export const OUTCOME_DIAGNOSIS_STATUSES = ['active', 'in-remission'] as const;

/** The outcomes' messages (`outcomeMessages.*`). */
export const OUTCOME_MESSAGES = {
  cannotView: 'You do not have permission to view these outcomes',
  chooseInstrument: 'Please choose PHQ-9 or GAD-7',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const outcomeMessage = messageSection('outcomeMessages', OUTCOME_MESSAGES);

/**
 * What practiceOutcomes is asked: the period (both days included, the practice's dates, as a report's), the
 * instrument, and (administrators; a provider may name only themselves) one provider's patients.
 */
export const PracticeOutcomesInputSchema = z
  .object({
    ...reportPeriodFields,
    instrument: z.enum(Object.keys(OUTCOME_THRESHOLDS) as [OutcomeInstrument, ...OutcomeInstrument[]], {
      error: outcomeMessage.error('chooseInstrument'),
    }),
    providerId: RecordIdSchema.nullish(),
  })
  .superRefine(checkReportPeriod);
export type PracticeOutcomesInput = z.infer<typeof PracticeOutcomesInputSchema>;
