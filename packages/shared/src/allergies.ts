import { z } from 'zod';
import { clinicalRecordMessage, PastDateSchema } from './clinical-record.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * A patient's structured allergies (issue 27, decision 062), beside the free-text `allergies` of the patient's
 * record (which stays as it is): one entry per substance, with its reaction, severity, category and when it was
 * noted. Removing an entry keeps it, marked removed, with who removed it, when and why.
 */

export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe', 'unknown'] as const;
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];

export const ALLERGY_CATEGORIES = ['medication', 'food', 'environment', 'other'] as const;
export type AllergyCategory = (typeof ALLERGY_CATEGORIES)[number];

/** An entry is on the list (active) or taken off it (removed, kept in the record). */
export const ALLERGY_STATUSES = ['active', 'removed'] as const;
export type AllergyStatus = (typeof ALLERGY_STATUSES)[number];

export const ALLERGY_SUBSTANCE_MAX = 120;
export const ALLERGY_REACTION_MAX = 250;
export const ALLERGY_REMOVAL_REASON_MAX = 1_000;

/** How two substances are compared for "already listed": the stored form, case-insensitively. */
export function allergySubstanceKey(substance: string): string {
  return substance.trim().toLocaleLowerCase('en-US');
}

/** addAllergy: the substance (required), its reaction, severity, category and the date it was noted. */
export const AddAllergyInputSchema = z.object({
  patientId: RecordIdSchema,
  substance: z
    .string({ error: clinicalRecordMessage.error('substanceRequired') })
    .pipe(textSchema({ label: 'Substance', kind: 'short', max: ALLERGY_SUBSTANCE_MAX }))
    .refine((substance) => substance !== '', { error: clinicalRecordMessage.error('substanceRequired') }),
  reaction: textSchema({ label: 'Reaction', kind: 'short', max: ALLERGY_REACTION_MAX })
    .nullish()
    .transform((r) => r || null),
  severity: z.enum(ALLERGY_SEVERITIES, { error: clinicalRecordMessage.error('chooseSeverity') }),
  category: z
    .enum(ALLERGY_CATEGORIES, { error: clinicalRecordMessage.error('chooseCategory') })
    .nullish()
    .transform((c) => c ?? null),
  notedDate: PastDateSchema,
});
export type AddAllergyInput = z.input<typeof AddAllergyInputSchema>;
export type AddAllergyData = z.output<typeof AddAllergyInputSchema>;

/** removeAllergy: the entry, and optionally why (kept with it). */
export const RemoveAllergyInputSchema = z.object({
  id: RecordIdSchema,
  reason: textSchema({ label: 'Reason', kind: 'free', max: ALLERGY_REMOVAL_REASON_MAX })
    .nullish()
    .transform((r) => (r ? r.trim() || null : null)),
});
export type RemoveAllergyInput = z.input<typeof RemoveAllergyInputSchema>;
export type RemoveAllergyData = z.output<typeof RemoveAllergyInputSchema>;
