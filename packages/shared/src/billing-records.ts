import { z } from 'zod';
import { isCalendarDate } from './appointments.ts';
import { BILLING_LIMITS as L, billingMessage, CentsSchema, ModifierSchema, PlaceOfServiceSchema } from './billing.ts';
import { ICD10_CODE_PATTERN, normalizeIcd10Code } from './clinical-record.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * Getting paid, the records (issue 30, decision 073): coding a visit, the ledger's entries, the date ranges of
 * superbills and reports, the reports' and documents' shapes. The identity, money, codes and the fee schedule are in
 * billing.ts.
 */

// --- Coding a visit ------------------------------------------------------------------------------------------

const DiagnosisCodeSchema = z
  .string({ error: billingMessage.error('diagnosisRequired') })
  .transform(normalizeIcd10Code)
  .refine((value) => ICD10_CODE_PATTERN.test(value), { error: billingMessage.error('diagnosisRequired') });

export const CodedServiceSchema = z.object({
  /** A service of the fee schedule; none chosen is said as such. */
  feeItemId: RecordIdSchema.refine((value) => value.length > 0, { error: billingMessage.error('chooseService') }),
  units: z
    .number({ error: billingMessage.error('unitsInvalid', { max: L.maxUnits }) })
    .int({ error: billingMessage.error('unitsInvalid', { max: L.maxUnits }) })
    .min(1, { error: billingMessage.error('unitsInvalid', { max: L.maxUnits }) })
    .max(L.maxUnits, { error: billingMessage.error('unitsInvalid', { max: L.maxUnits }) }),
  modifiers: z
    .array(ModifierSchema)
    .max(L.maxModifiers, { error: billingMessage.error('tooManyModifiers', { max: L.maxModifiers }) })
    .refine((list) => new Set(list).size === list.length, { error: billingMessage.error('duplicateModifier') }),
  /** 1-based positions in the visit's diagnosis list (A = 1 to D = 4), as the claim form points. */
  diagnosisPointers: z
    .array(z.number().int().min(1).max(L.maxDiagnoses), { error: billingMessage.error('pointerInvalid') })
    .min(1, { error: billingMessage.error('pointerRequired') })
    .max(L.maxDiagnoses, { error: billingMessage.error('pointerInvalid') })
    .refine((list) => new Set(list).size === list.length, { error: billingMessage.error('pointerInvalid') }),
});
export type CodedService = z.output<typeof CodedServiceSchema>;

export const VisitCodingInputSchema = z
  .object({
    appointmentId: RecordIdSchema,
    placeOfService: PlaceOfServiceSchema,
    /** The visit's diagnoses, in claim order (the first is the primary), each on the patient's problem list. */
    diagnosisCodes: z
      .array(DiagnosisCodeSchema)
      .min(1, { error: billingMessage.error('diagnosisRequired') })
      .max(L.maxDiagnoses, { error: billingMessage.error('tooManyDiagnoses', { max: L.maxDiagnoses }) })
      .refine((list) => new Set(list).size === list.length, { error: billingMessage.error('duplicateDiagnosis') }),
    services: z
      .array(CodedServiceSchema)
      .min(1, { error: billingMessage.error('atLeastOneService') })
      .max(L.maxServices, { error: billingMessage.error('tooManyServices', { max: L.maxServices }) }),
    /** The coding's version the form was opened on (0: none yet): a change made meanwhile is refused. */
    expectedVersion: z.number().int().min(0),
  })
  .superRefine((coding, ctx) => {
    coding.services.forEach((service, index) => {
      if (service.diagnosisPointers.some((pointer) => pointer > coding.diagnosisCodes.length))
        ctx.addIssue({
          code: 'custom',
          path: ['services', index, 'diagnosisPointers'],
          ...billingMessage.issue('pointerInvalid'),
        });
    });
  });
export type VisitCodingInput = z.input<typeof VisitCodingInputSchema>;

// --- The ledger ----------------------------------------------------------------------------------------------

/**
 * A ledger entry's kind. Every entry's amount is signed by its effect on what the patient owes: a charge adds, a
 * payment subtracts, an adjustment does either (a write-off subtracts), and a reversal is the exact opposite of
 * the entry it reverses. The balance is the sum.
 */
export const LEDGER_ENTRY_KINDS = ['charge', 'payment', 'adjustment', 'reversal'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const PAYMENT_METHODS = ['cash', 'check', 'card', 'insurance'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** An adjustment lowers what the patient owes (a write-off, a courtesy discount) or raises it (a returned check). */
export const ADJUSTMENT_DIRECTIONS = ['decrease', 'increase'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];

const EntryDateSchema = z
  .string({ error: billingMessage.error('dateInvalid') })
  // A real day of the calendar: 2026-02-30 has the shape but no day (and PostgreSQL would refuse it).
  .refine((value) => isCalendarDate(value), {
    error: billingMessage.error('dateInvalid'),
  });

/** Why an adjustment or a reversal was made: required. */
const ReasonSchema = textSchema({ label: 'Reason', kind: 'free', max: L.reasonMax }).refine(
  (value) => value.length > 0,
  {
    error: billingMessage.error('reasonRequired'),
  },
);

export const PaymentInputSchema = z.object({
  patientId: RecordIdSchema,
  amountCents: CentsSchema,
  method: z.enum(PAYMENT_METHODS, { error: billingMessage.error('choosePaymentMethod') }),
  /** The day the money was received (the practice's calendar day), not in the future. */
  receivedOn: EntryDateSchema,
  /** A check number or a card receipt's reference; no card number. */
  reference: textSchema({ label: 'Reference', kind: 'token', max: L.referenceMax })
    .nullish()
    .transform((value) => value || undefined),
  /** The visit the payment is for, when it is for one. */
  appointmentId: RecordIdSchema.nullish().transform((value) => value ?? undefined),
});
export type PaymentInput = z.input<typeof PaymentInputSchema>;

export const AdjustmentInputSchema = z.object({
  patientId: RecordIdSchema,
  amountCents: CentsSchema,
  direction: z.enum(ADJUSTMENT_DIRECTIONS, { error: billingMessage.error('reasonRequired') }),
  reason: ReasonSchema,
  appointmentId: RecordIdSchema.nullish().transform((value) => value ?? undefined),
});
export type AdjustmentInput = z.input<typeof AdjustmentInputSchema>;

export const ReversalInputSchema = z.object({
  entryId: RecordIdSchema,
  reason: ReasonSchema,
});
export type ReversalInput = z.input<typeof ReversalInputSchema>;

/** A date range (inclusive) for a superbill or a report: at most BILLING_LIMITS.maxRangeDays days. */
export const BillingRangeSchema = z.object({ from: EntryDateSchema, to: EntryDateSchema }).superRefine((range, ctx) => {
  const days = (Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000;
  if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], ...billingMessage.issue('rangeInvalid') });
  else if (days >= L.maxRangeDays)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      ...billingMessage.issue('rangeTooLong', { max: L.maxRangeDays }),
    });
});

// --- Reports -------------------------------------------------------------------------------------------------

/** The day an aging report is computed for (the practice's calendar day). */
export const BillingAsOfSchema = z.object({ asOf: EntryDateSchema });
export type BillingAsOf = z.output<typeof BillingAsOfSchema>;
export type BillingRange = z.output<typeof BillingRangeSchema>;

/** The billing reports of /admin/reports (administrators): which one a CSV download or an audit entry is. */
export const BILLING_REPORT_KINDS = ['billing', 'aging', 'uncoded'] as const;
export type BillingReportKind = (typeof BILLING_REPORT_KINDS)[number];

/**
 * Where each billing report's CSV is downloaded (GET with the session cookie): the range as `from` and `to`, or
 * the aging report's `asOf`, in the query; dates only, never a name.
 */
export const BILLING_REPORT_CSV_PATHS: Record<BillingReportKind, string> = {
  billing: '/api/reports/billing.csv',
  aging: '/api/reports/aging.csv',
  uncoded: '/api/reports/uncoded-visits.csv',
};

/** The most visits the uncoded list shows at once (the count says how many there are). */
export const UNCODED_VISITS_MAX = 500;

/** Outstanding balances by age: by the days since the oldest unpaid charge's service date. */
export const AGING_BUCKETS = ['0-30', '31-60', '61-90', 'over-90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export function agingBucket(daysOld: number): AgingBucket {
  if (daysOld <= 30) return '0-30';
  if (daysOld <= 60) return '31-60';
  if (daysOld <= 90) return '61-90';
  return 'over-90';
}

// --- Superbills and statements -------------------------------------------------------------------------------

/** Where the superbill and statement downloads are served (plain HTTP with the session cookie). */
export const BILLING_DOCUMENTS_PATH = '/api/billing';

/** The days of entries a statement lists; what came before is its balance forward. */
export const STATEMENT_DAYS = 90;

/**
 * A superbill's query: one coded visit of the patient (`appointmentId`), or the visits of a date range (`from`,
 * `to`, checked by BillingRangeSchema). Only ids and dates: no name in a URL.
 */
export const SuperbillQuerySchema = z
  .object({
    patientId: RecordIdSchema,
    appointmentId: RecordIdSchema.optional(),
    from: z.string().optional(),
    to: z.string().optional(),
  })
  .superRefine((query, ctx) => {
    if (query.appointmentId) return;
    if (query.from === undefined && query.to === undefined) {
      ctx.addIssue({ code: 'custom', path: ['from'], ...billingMessage.issue('chooseVisitOrRange') });
      return;
    }
    const range = BillingRangeSchema.safeParse({ from: query.from, to: query.to });
    if (!range.success) for (const issue of range.error.issues) ctx.addIssue({ ...issue });
  });
export type SuperbillQuery = z.output<typeof SuperbillQuerySchema>;

export const StatementQuerySchema = z.object({ patientId: RecordIdSchema });

/** The download address of a superbill (ids and dates only). */
export function superbillPath(query: {
  patientId: string;
  appointmentId?: string;
  from?: string;
  to?: string;
}): string {
  const params = new URLSearchParams({ patientId: query.patientId });
  if (query.appointmentId) params.set('appointmentId', query.appointmentId);
  else {
    if (query.from) params.set('from', query.from);
    if (query.to) params.set('to', query.to);
  }
  return `${BILLING_DOCUMENTS_PATH}/superbill?${params.toString()}`;
}

/** The download address of the patient's statement. */
export function statementPath(patientId: string): string {
  return `${BILLING_DOCUMENTS_PATH}/statement?${new URLSearchParams({ patientId }).toString()}`;
}
