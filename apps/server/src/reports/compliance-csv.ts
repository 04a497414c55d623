import { stringify } from 'csv-stringify/sync';
import { csvSafeCell } from '@telehealth/shared';
import type { ComplianceReport } from './compliance-report.ts';

/** The CSV's columns: one table for every part of the report, told apart by `section`. */
export const COMPLIANCE_CSV_COLUMNS = [
  'section',
  'item',
  'value',
  'severity',
  'userId',
  'name',
  'email',
  'event',
  'firstAt',
  'lastAt',
] as const;

type Row = Partial<Record<(typeof COMPLIANCE_CSV_COLUMNS)[number], string | number | null>>;

/**
 * The compliance report as CSV (RFC 4180, a header row): the summary, the event breakdown, each risk indicator
 * and each person under it. Every cell goes through csvSafeCell: a name or a typed address starting with = + - @
 * gets a leading apostrophe, so a spreadsheet shows it instead of running it.
 */
export function complianceReportCsv(report: ComplianceReport): string {
  const rows: Row[] = [
    { section: 'summary', item: 'startDate', value: report.period.startDate },
    { section: 'summary', item: 'endDate', value: report.period.endDate },
    { section: 'summary', item: 'timeZone', value: report.period.timeZone },
    { section: 'summary', item: 'totalEvents', value: report.totalEvents },
    { section: 'summary', item: 'hipaaEvents', value: report.hipaaEvents },
    { section: 'summary', item: 'securityViolations', value: report.securityViolations },
    { section: 'summary', item: 'uniqueUsers', value: report.uniqueUsers },
    { section: 'summary', item: 'generatedAt', value: report.generatedAt.toISOString() },
    {
      section: 'summary',
      item: 'generatedBy',
      value: report.generatedBy.name,
      userId: report.generatedBy.userId,
      email: report.generatedBy.email,
    },
    ...report.eventBreakdown.map((e) => ({ section: 'eventBreakdown', item: e.event, value: e.count })),
    ...report.riskIndicators.flatMap((indicator) => [
      { section: 'riskIndicator', item: indicator.type, value: indicator.count, severity: indicator.severity },
      ...indicator.people.map((person) => ({
        section: 'riskIndicatorPerson',
        item: indicator.type,
        value: person.count,
        severity: indicator.severity,
        userId: person.userId,
        name: person.name,
        email: person.email,
        event: person.event,
        firstAt: person.firstAt.toISOString(),
        lastAt: person.lastAt.toISOString(),
      })),
    ]),
  ];
  return stringify(
    rows.map((row) => COMPLIANCE_CSV_COLUMNS.map((column) => csvSafeCell(row[column]))),
    { header: true, columns: [...COMPLIANCE_CSV_COLUMNS], record_delimiter: 'windows' },
  );
}
