import { messageSection } from './field-messages.ts';
import { z } from 'zod';

/**
 * The compliance report and the practice reports on /admin/reports (issue 16, decision 035): the messages the
 * server may answer, the period's schema (form and server), and the names the report keeps from the
 * specification (generateComplianceReport: period, totals, HIPAA events, security violations, unique users, event
 * breakdown, risk indicators, generatedAt, generatedBy).
 */
export const REPORT_MESSAGES = {
  startDateRequired: 'Please choose the first day of the period',
  endDateRequired: 'Please choose the last day of the period',
  invalidDate: 'Please enter a date as YYYY-MM-DD',
  endBeforeStart: 'The last day must be on or after the first day',
  periodTooLong: 'A report covers at most {{days}} days: please choose a shorter period',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const reportMessage = messageSection('reportMessages', REPORT_MESSAGES);

/** The longest period one report covers (a year and a day, so a leap year fits). */
export const REPORT_MAX_DAYS = 366;

/** The specification's risk indicators, then the two this product adds (decision 035). */
export const RISK_INDICATOR_TYPES = [
  'MULTIPLE_FAILED_LOGINS',
  'AFTER_HOURS_ACCESS',
  'BULK_RECORD_ACCESS',
  'EMERGENCY_ACCESS',
] as const;
export type RiskIndicatorType = (typeof RISK_INDICATOR_TYPES)[number];

export const RISK_SEVERITIES = ['HIGH', 'MEDIUM'] as const;
export type RiskSeverity = (typeof RISK_SEVERITIES)[number];

/** More than this many failed sign-ins in the period is MULTIPLE_FAILED_LOGINS (the specification's 10). */
export const FAILED_LOGIN_THRESHOLD = 10;
/** Activity before this hour or after AFTER_HOURS_END in the practice's time zone is AFTER_HOURS_ACCESS. */
export const AFTER_HOURS_START = '06:00';
export const AFTER_HOURS_END = '22:00';
/** Defaults of RISK_BULK_ACCESS_PATIENTS and RISK_BULK_ACCESS_MINUTES: 30 distinct patients within an hour. */
export const BULK_ACCESS_PATIENTS = 30;
export const BULK_ACCESS_MINUTES = 60;
/**
 * The events of the EMERGENCY_ACCESS indicator: each use of emergency access ("break the glass"), its end and its
 * review. An administrator reading the review list (EMERGENCY_ACCESS_VIEW) is not a use.
 */
export const EMERGENCY_ACCESS_INDICATOR_EVENTS = [
  'EMERGENCY_ACCESS_GRANTED',
  'EMERGENCY_ACCESS_ENDED',
  'EMERGENCY_ACCESS_REVIEWED',
] as const;

export const RISK_SEVERITY_OF: Readonly<Record<RiskIndicatorType, RiskSeverity>> = {
  MULTIPLE_FAILED_LOGINS: 'HIGH',
  AFTER_HOURS_ACCESS: 'MEDIUM',
  BULK_RECORD_ACCESS: 'HIGH',
  EMERGENCY_ACCESS: 'HIGH',
};

/**
 * The events counted as security violations: refused accesses and the specification's violation events (failed
 * sign-ins have their own risk indicator).
 */
export const SECURITY_VIOLATION_EVENTS = [
  'UNAUTHORIZED_ACCESS',
  'SECURITY_VIOLATION',
  'PATIENT_DATA_ACCESS_VIOLATION',
  'DATA_BREACH',
] as const;

/** At most this many people are named under one risk indicator (the count says how many there were). */
export const RISK_PEOPLE_MAX = 50;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const dateField = (required: 'startDateRequired' | 'endDateRequired') =>
  z
    .string({ error: reportMessage.error(required) })
    .trim()
    .min(1, { error: reportMessage.error(required) })
    .refine(isCalendarDate, { error: reportMessage.error('invalidDate') });

/** Days from one calendar date to another (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The period's two fields, for a schema that adds its own beside them (the practice outcomes' input). */
export const reportPeriodFields = {
  startDate: dateField('startDateRequired'),
  endDate: dateField('endDateRequired'),
};

/** The period's rules across its fields: the last day on or after the first, at most REPORT_MAX_DAYS. */
export function checkReportPeriod(value: { startDate: string; endDate: string }, ctx: z.RefinementCtx): void {
  if (!isCalendarDate(value.startDate) || !isCalendarDate(value.endDate)) return;
  const days = daysBetween(value.startDate, value.endDate);
  if (days < 0) ctx.addIssue({ code: 'custom', ...reportMessage.issue('endBeforeStart'), path: ['endDate'] });
  else if (days + 1 > REPORT_MAX_DAYS) {
    ctx.addIssue({
      code: 'custom',
      ...reportMessage.issue('periodTooLong', { days: REPORT_MAX_DAYS }),
      path: ['endDate'],
    });
  }
}

/** A report's period: the first and the last day, both included, as dates of the practice's time zone. */
export const ReportPeriodSchema = z.object(reportPeriodFields).superRefine(checkReportPeriod);
export type ReportPeriod = z.infer<typeof ReportPeriodSchema>;

/** Where the compliance report's CSV is downloaded (GET, the period in the query, the session cookie). */
export const COMPLIANCE_REPORT_CSV_PATH = '/api/reports/compliance.csv';

/** A spreadsheet would run a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell that a spreadsheet shows as text: a leading apostrophe before = + - @ (and tab or CR). */
export function csvSafeCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  return FORMULA_START.test(value) ? `'${value}` : value;
}
