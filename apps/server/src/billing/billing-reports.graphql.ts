import { AGING_BUCKETS } from '@telehealth/shared';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';
import type { BillingTotals, ProviderMonthFigures, UncodedVisit } from './billing-reports.repository.ts';
import type {
  AgingAmounts,
  AgingPatient,
  AgingReport,
  BillingReport,
  UncodedVisitsReport,
} from './billing-reports.service.ts';

// The billing reports of /admin/reports (decision 073, "Reports"), administrators only; every read audited
// (BILLING_REPORT_VIEW). Amounts are integer cents.

const BillingReportRangeInput = builder.inputType('BillingReportRangeInput', {
  description: 'The first and the last day (both included), YYYY-MM-DD in the practice’s calendar.',
  fields: (t) => ({ from: t.string({ required: true }), to: t.string({ required: true }) }),
});

const BillingTotalsRef = builder.objectRef<BillingTotals>('BillingReportTotals').implement({
  fields: (t) => ({
    chargesCents: t.exposeInt('chargesCents', { description: 'Charges less the reversals of charges.' }),
    paymentsCents: t.exposeInt('paymentsCents', {
      description: 'Payments received, shown positive, less the reversals of payments.',
    }),
    adjustmentsCents: t.exposeInt('adjustmentsCents', {
      description: 'Adjustments, signed by their effect on what patients owe, less their reversals.',
    }),
  }),
});

const ProviderMonthRef = builder.objectRef<ProviderMonthFigures>('BillingProviderMonth').implement({
  fields: (t) => ({
    providerId: t.exposeID('providerId', { nullable: true, description: 'Null: entries made for no provider.' }),
    providerName: t.exposeString('providerName', { nullable: true }),
    month: t.exposeString('month', { description: 'YYYY-MM' }),
    chargesCents: t.exposeInt('chargesCents'),
    paymentsCents: t.exposeInt('paymentsCents'),
    adjustmentsCents: t.exposeInt('adjustmentsCents'),
  }),
});

const BillingReportRef = builder.objectRef<BillingReport>('BillingReport').implement({
  description: 'Charges, payments and adjustments of a range by provider and month (the entries’ days).',
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    rows: t.field({ type: [ProviderMonthRef], resolve: (r) => r.rows }),
    totals: t.field({ type: BillingTotalsRef, resolve: (r) => r.totals }),
  }),
});

const AgingAmountRef = builder.objectRef<{ bucket: string; cents: number }>('AgingBucketAmount').implement({
  fields: (t) => ({
    bucket: t.exposeString('bucket', { description: '0-30, 31-60, 61-90 or over-90 (days since the service)' }),
    cents: t.exposeInt('cents'),
  }),
});

const bucketsOf = (amounts: AgingAmounts) => AGING_BUCKETS.map((bucket) => ({ bucket, cents: amounts[bucket] }));

const AgingPatientRef = builder.objectRef<AgingPatient>('AgingPatient').implement({
  fields: (t) => ({
    patientId: t.exposeID('patientId'),
    patientName: t.exposeString('patientName'),
    buckets: t.field({ type: [AgingAmountRef], resolve: bucketsOf }),
    totalCents: t.exposeInt('totalCents'),
  }),
});

const AgingReportRef = builder.objectRef<AgingReport>('AgingReport').implement({
  description: 'What each patient owing owes on a day, by the age of the unpaid charges (credits pay the oldest).',
  fields: (t) => ({
    asOf: t.exposeString('asOf'),
    patients: t.field({ type: [AgingPatientRef], resolve: (r) => r.patients }),
    buckets: t.field({ type: [AgingAmountRef], resolve: (r) => bucketsOf(r.totals) }),
    totalCents: t.int({ resolve: (r) => r.totals.totalCents }),
  }),
});

const UncodedVisitRef = builder.objectRef<UncodedVisit>('UncodedVisit').implement({
  fields: (t) => ({
    appointmentId: t.exposeID('appointmentId'),
    date: t.exposeString('date', { description: 'The visit’s day in the practice’s calendar.' }),
    startsAt: t.string({ resolve: (v) => v.startsAt.toISOString() }),
    providerId: t.exposeID('providerId'),
    providerName: t.exposeString('providerName'),
    patientId: t.exposeID('patientId'),
    patientName: t.exposeString('patientName'),
  }),
});

const UncodedVisitsRef = builder.objectRef<UncodedVisitsReport>('UncodedVisits').implement({
  fields: (t) => ({
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    timeZone: t.exposeString('timeZone'),
    visits: t.field({ type: [UncodedVisitRef], resolve: (r) => r.visits }),
    total: t.exposeInt('total', { description: 'How many there are (the list holds at most 500).' }),
  }),
});

builder.queryField('billingReport', (t) =>
  t.field({
    type: BillingReportRef,
    description: 'Administrators: charges, payments and adjustments by provider and month. Audited.',
    args: { range: t.arg({ type: BillingReportRangeInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.billingReports.billingReport(callerOf(ctx, 'billingReport'), args.range),
  }),
);

builder.queryField('agingReport', (t) =>
  t.field({
    type: AgingReportRef,
    description: 'Administrators: outstanding balances by age on a day (YYYY-MM-DD). Audited.',
    args: { asOf: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.billingReports.agingReport(callerOf(ctx, 'agingReport'), { asOf: args.asOf }),
  }),
);

builder.queryField('uncodedVisits', (t) =>
  t.field({
    type: UncodedVisitsRef,
    description: 'Administrators: completed visits of a range without a current coding, oldest first. Audited.',
    args: { range: t.arg({ type: BillingReportRangeInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.billingReports.uncodedVisits(callerOf(ctx, 'uncodedVisits'), args.range),
  }),
);
