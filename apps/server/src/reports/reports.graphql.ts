import type { ComplianceReport, PeriodBounds, RiskIndicator, RiskPerson, EventCount } from './compliance-report.ts';
import type { MeasureMonth, PracticeFigures, ProviderAppointments, StatusCount } from './practice-report.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

// The compliance report and the practice reports of /admin/reports (decision 035), administrators only.

const ReportPeriodInput = builder.inputType('ReportPeriodInput', {
  description: 'The first and the last day of a period (both included), YYYY-MM-DD in the practice time zone.',
  fields: (t) => ({ startDate: t.string(), endDate: t.string() }),
});

const ComplianceReportFormatEnum = builder.enumType('ComplianceReportFormat', {
  description: 'Where the report goes: shown on the screen or as the printable page (the CSV has its own route).',
  values: ['screen', 'print'] as const,
});

const ReportPeriodRef = builder.objectRef<PeriodBounds>('ReportPeriod').implement({
  fields: (t) => ({
    startDate: t.exposeString('startDate'),
    endDate: t.exposeString('endDate'),
    timeZone: t.exposeString('timeZone'),
  }),
});

const EventCountRef = builder.objectRef<EventCount>('EventCount').implement({
  fields: (t) => ({ event: t.exposeString('event'), count: t.exposeInt('count') }),
});

const RiskPersonRef = builder.objectRef<RiskPerson>('RiskPerson').implement({
  description: 'A person behind a risk indicator: who, how many entries, the first and last of them.',
  fields: (t) => ({
    userId: t.exposeString('userId', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    email: t.exposeString('email', {
      nullable: true,
      description: 'The account’s address, or the address typed at a failed sign-in without an account.',
    }),
    role: t.exposeString('role', { nullable: true }),
    event: t.exposeString('event', { nullable: true }),
    count: t.exposeInt('count'),
    firstAt: t.string({ resolve: (p) => p.firstAt.toISOString() }),
    lastAt: t.string({ resolve: (p) => p.lastAt.toISOString() }),
  }),
});

const RiskIndicatorRef = builder.objectRef<RiskIndicator>('RiskIndicator').implement({
  fields: (t) => ({
    type: t.exposeString('type', {
      description: 'MULTIPLE_FAILED_LOGINS, AFTER_HOURS_ACCESS, BULK_RECORD_ACCESS or EMERGENCY_ACCESS',
    }),
    severity: t.exposeString('severity', { description: 'HIGH or MEDIUM' }),
    count: t.exposeInt('count'),
    people: t.field({ type: [RiskPersonRef], resolve: (i) => i.people }),
    peopleCount: t.exposeInt('peopleCount'),
  }),
});

const ReportAuthorRef = builder.objectRef<ComplianceReport['generatedBy']>('ReportAuthor').implement({
  fields: (t) => ({ userId: t.exposeString('userId'), name: t.exposeString('name'), email: t.exposeString('email') }),
});

const ComplianceReportRef = builder.objectRef<ComplianceReport>('ComplianceReport').implement({
  description: 'The specification’s compliance report, computed on the server over the audit trail of a period.',
  fields: (t) => ({
    period: t.field({ type: ReportPeriodRef, resolve: (r) => r.period }),
    totalEvents: t.exposeInt('totalEvents'),
    hipaaEvents: t.exposeInt('hipaaEvents'),
    securityViolations: t.exposeInt('securityViolations'),
    uniqueUsers: t.exposeInt('uniqueUsers'),
    eventBreakdown: t.field({ type: [EventCountRef], resolve: (r) => r.eventBreakdown }),
    riskIndicators: t.field({ type: [RiskIndicatorRef], resolve: (r) => r.riskIndicators }),
    generatedAt: t.string({ resolve: (r) => r.generatedAt.toISOString() }),
    generatedBy: t.field({ type: ReportAuthorRef, resolve: (r) => r.generatedBy }),
  }),
});

const StatusCountRef = builder.objectRef<StatusCount>('AppointmentStatusCount').implement({
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
});

const ProviderAppointmentsRef = builder.objectRef<ProviderAppointments>('ProviderAppointments').implement({
  fields: (t) => ({
    providerId: t.exposeID('providerId'),
    name: t.exposeString('name'),
    total: t.exposeInt('total'),
    byStatus: t.field({ type: [StatusCountRef], resolve: (p) => p.byStatus }),
  }),
});

const MeasureMonthRef = builder.objectRef<MeasureMonth>('MeasureMonth').implement({
  description: 'The questionnaires of one instrument completed in a month: how many, and their mean total score.',
  fields: (t) => ({
    instrument: t.exposeString('instrument'),
    month: t.exposeString('month'),
    count: t.exposeInt('count'),
    mean: t.exposeFloat('mean'),
  }),
});

const PracticeReportRef = builder.objectRef<PracticeFigures>('PracticeReport').implement({
  description: 'Appointments and rating-scale scores of a period, in aggregate (no patient named).',
  fields: (t) => ({
    period: t.field({ type: ReportPeriodRef, resolve: (r) => r.period }),
    appointmentsTotal: t.exposeInt('appointmentsTotal'),
    byStatus: t.field({ type: [StatusCountRef], resolve: (r) => r.byStatus }),
    byProvider: t.field({ type: [ProviderAppointmentsRef], resolve: (r) => r.byProvider }),
    noShows: t.exposeInt('noShows'),
    dueAppointments: t.exposeInt('dueAppointments', {
      description: 'Appointments of the period that were due: started before now and not cancelled.',
    }),
    noShowRate: t.exposeFloat('noShowRate', { nullable: true, description: 'noShows / dueAppointments' }),
    lateCancellations: t.exposeInt('lateCancellations'),
    lateCancellationRate: t.exposeFloat('lateCancellationRate', {
      nullable: true,
      description: 'lateCancellations / appointmentsTotal',
    }),
    measures: t.field({ type: [MeasureMonthRef], resolve: (r) => r.measures }),
  }),
});

builder.mutationField('generateComplianceReport', (t) =>
  t.field({
    type: ComplianceReportRef,
    description: 'Administrators: the compliance report of a period. Audited as a DATA_EXPORT.',
    args: {
      input: t.arg({ type: ReportPeriodInput, required: true }),
      format: t.arg({ type: ComplianceReportFormatEnum }),
    },
    resolve: (_root, args, ctx) =>
      ctx.reports.complianceReport(callerOf(ctx, 'generateComplianceReport'), args.input, args.format ?? 'screen'),
  }),
);

builder.queryField('practiceReport', (t) =>
  t.field({
    type: PracticeReportRef,
    description: 'Administrators: appointments and PHQ-9/GAD-7 scores of a period. Audited (PRACTICE_REPORT_VIEW).',
    args: { input: t.arg({ type: ReportPeriodInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.reports.practiceReport(callerOf(ctx, 'practiceReport'), args.input),
  }),
);
