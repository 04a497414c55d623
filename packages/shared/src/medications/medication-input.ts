import { z } from 'zod';
import { clinicalRecordMessage, PastDateSchema } from '../clinical-record.ts';
import { OptionalBooleanSchema, RecordIdSchema, textSchema } from '../text.ts';
import { DRUG_CLASSES } from './drug-classes.ts';
import { DOSE_UNITS, FREQUENCIES, MEDICATION_FORMS, ROUTES } from './sig.ts';

/**
 * A patient's medication as a provider records it (issue 27, decision 062): the drug (from the catalogue or typed),
 * a structured dose shown as a readable sig, quantity, refills, prescriber, indication, start; then each change as
 * a dated event with a reason. Nothing here is sent to a pharmacy: the product keeps the list, it does not prescribe.
 */

/** Where a medication stands: taken, paused (held) or no longer taken. */
export const MEDICATION_STATUSES = ['active', 'held', 'stopped'] as const;
export type MedicationStatus = (typeof MEDICATION_STATUSES)[number];

/** What an event of a medication's history records. */
export const MEDICATION_EVENT_KINDS = ['started', 'dose-changed', 'held', 'resumed', 'stopped'] as const;
export type MedicationEventKind = (typeof MEDICATION_EVENT_KINDS)[number];

/** The changes a provider makes to a medication after it started. */
export const MEDICATION_CHANGE_KINDS = ['dose-changed', 'held', 'resumed', 'stopped'] as const;
export type MedicationChangeKind = (typeof MEDICATION_CHANGE_KINDS)[number];

export const DRUG_NAME_MAX = 120;
export const STRENGTH_MAX = 40;
export const PRESCRIBER_MAX = 120;
export const AS_NEEDED_REASON_MAX = 120;
export const MEDICATION_REASON_MAX = 1_000;
export const QUANTITY_MAX = 10_000;
export const REFILLS_MAX = 99;
export const DOSE_AMOUNT_MAX = 100_000;

const nullableShort = (label: string, max: number) =>
  textSchema({ label, kind: 'short', max })
    .nullish()
    .transform((v) => v || null);

const wholeNumber = (max: number, key: 'quantityInvalid' | 'refillsInvalid') =>
  z
    .number({ error: clinicalRecordMessage.error(key, { max }) })
    .int({ error: clinicalRecordMessage.error(key, { max }) })
    .min(0, { error: clinicalRecordMessage.error(key, { max }) })
    .max(max, { error: clinicalRecordMessage.error(key, { max }) })
    .nullish()
    .transform((v) => v ?? null);

/** The structured dose: an amount and unit, by a route, how often, and whether only as needed (and for what). */
export const doseFields = {
  doseAmount: z
    .number({ error: clinicalRecordMessage.error('doseAmountInvalid') })
    .positive({ error: clinicalRecordMessage.error('doseAmountInvalid') })
    .max(DOSE_AMOUNT_MAX, { error: clinicalRecordMessage.error('doseAmountInvalid') }),
  doseUnit: z.enum(DOSE_UNITS, { error: clinicalRecordMessage.error('chooseUnit') }),
  route: z.enum(ROUTES, { error: clinicalRecordMessage.error('chooseRoute') }),
  frequency: z.enum(FREQUENCIES, { error: clinicalRecordMessage.error('chooseFrequency') }),
  asNeeded: OptionalBooleanSchema.transform((v) => v ?? false),
  asNeededReason: nullableShort('As needed for', AS_NEEDED_REASON_MAX),
  strength: nullableShort('Strength', STRENGTH_MAX),
};

const ReasonSchema = textSchema({ label: 'Reason', kind: 'free', max: MEDICATION_REASON_MAX })
  .nullish()
  .transform((r) => (r ? r.trim() || null : null));

const OptionalIdSchema = RecordIdSchema.nullish().transform((id) => id || null);

/** startMedication: a new medication of the patient, from its start date (today when not given). */
export const StartMedicationInputSchema = z.object({
  patientId: RecordIdSchema,
  drugName: z
    .string({ error: clinicalRecordMessage.error('drugNameRequired') })
    .pipe(textSchema({ label: 'Medication', kind: 'short', max: DRUG_NAME_MAX }))
    .refine((name) => name !== '', { error: clinicalRecordMessage.error('drugNameRequired') }),
  brandName: nullableShort('Brand', DRUG_NAME_MAX),
  drugClass: z
    .enum(DRUG_CLASSES, { error: clinicalRecordMessage.error('chooseClass') })
    .nullish()
    .transform((c) => c ?? null),
  form: z
    .enum(MEDICATION_FORMS, { error: clinicalRecordMessage.error('chooseForm') })
    .nullish()
    .transform((f) => f ?? null),
  ...doseFields,
  quantity: wholeNumber(QUANTITY_MAX, 'quantityInvalid'),
  refills: wholeNumber(REFILLS_MAX, 'refillsInvalid'),
  prescriber: nullableShort('Prescriber', PRESCRIBER_MAX),
  indicationId: OptionalIdSchema,
  startDate: PastDateSchema,
  reason: ReasonSchema,
  noteId: OptionalIdSchema,
});
export type StartMedicationInput = z.input<typeof StartMedicationInputSchema>;
export type StartMedicationData = z.output<typeof StartMedicationInputSchema>;

/**
 * changeMedication: one change, dated (today when not given), with its reason: a new dose (the dose fields then
 * required), held, resumed or stopped. From a note, `noteId` links the change to it.
 */
export const ChangeMedicationInputSchema = z
  .object({
    id: RecordIdSchema,
    kind: z.enum(MEDICATION_CHANGE_KINDS, { error: clinicalRecordMessage.error('chooseChange') }),
    effectiveDate: PastDateSchema,
    reason: ReasonSchema,
    noteId: OptionalIdSchema,
    dose: z.object(doseFields).nullish(),
  })
  .superRefine((change, ctx) => {
    if (!change.reason) {
      ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('reasonRequired'), path: ['reason'] });
    }
    if (change.kind === 'dose-changed' && !change.dose) {
      ctx.addIssue({ code: 'custom', ...clinicalRecordMessage.issue('doseAmountInvalid'), path: ['dose'] });
    }
  })
  .transform((change) => ({ ...change, dose: change.kind === 'dose-changed' ? (change.dose ?? null) : null }));
export type ChangeMedicationInput = z.input<typeof ChangeMedicationInputSchema>;
export type ChangeMedicationData = z.output<typeof ChangeMedicationInputSchema>;
