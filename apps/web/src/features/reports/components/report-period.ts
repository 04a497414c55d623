import { todayIn, type ReportPeriod } from '@telehealth/shared';

/** The screen's first period: from the first day of the month two months back to today (three calendar months). */
export function defaultReportPeriod(timeZone: string, now: Date = new Date()): ReportPeriod {
  const today = todayIn(timeZone, now);
  const [year, month] = today.split('-').map(Number) as [number, number];
  const back = new Date(Date.UTC(year, month - 1 - 2, 1));
  const startDate = back.toISOString().slice(0, 10);
  return { startDate, endDate: today };
}

/** The period in a page address (the printable report's), or null when it names none. */
export function periodFromSearch(params: URLSearchParams): ReportPeriod | null {
  const startDate = params.get('startDate');
  const endDate = params.get('endDate');
  return startDate && endDate ? { startDate, endDate } : null;
}

export function printableReportPath(period: ReportPeriod): string {
  return `/admin/reports/compliance/print?${new URLSearchParams({ startDate: period.startDate, endDate: period.endDate }).toString()}`;
}
