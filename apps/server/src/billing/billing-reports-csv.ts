import { stringify } from 'csv-stringify/sync';
import { AGING_BUCKETS, csvSafeCell } from '@telehealth/shared';
import type { AgingReport, BillingReport, UncodedVisitsReport } from './billing-reports.service.ts';

// The billing reports as CSV (RFC 4180, a header row, CRLF), as the compliance report's: every text cell goes
// through csvSafeCell, so a name starting with = + - @ is shown by a spreadsheet, never run as a formula.

type Cell = string | number | null;

/**
 * Cents as a decimal number of dollars ("-1234.50"), from integers only. Not passed through csvSafeCell: it is
 * made here of digits, a point and perhaps a leading minus, which a spreadsheet reads as the number it is (the
 * guard would turn a negative amount into text).
 */
export function centsCell(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function csv(columns: readonly string[], rows: readonly (readonly Cell[])[], amountColumns: readonly number[]): string {
  return stringify(
    rows.map((row) =>
      row.map((cell, index) =>
        amountColumns.includes(index) && typeof cell === 'number' ? centsCell(cell) : csvSafeCell(cell),
      ),
    ),
    { header: true, columns: [...columns], record_delimiter: 'windows' },
  );
}

/** By provider and month, then the totals (month "total"). Amounts in dollars. */
export function billingReportCsv(report: BillingReport): string {
  return csv(
    ['month', 'providerId', 'provider', 'charges', 'payments', 'adjustments'],
    [
      ...report.rows.map((row) => [
        row.month,
        row.providerId,
        row.providerName,
        row.chargesCents,
        row.paymentsCents,
        row.adjustmentsCents,
      ]),
      ['total', null, null, report.totals.chargesCents, report.totals.paymentsCents, report.totals.adjustmentsCents],
    ],
    [3, 4, 5],
  );
}

/** A row per patient owing, then the totals (patientId "total"). Amounts in dollars. */
export function agingReportCsv(report: AgingReport): string {
  return csv(
    ['asOf', 'patientId', 'patient', ...AGING_BUCKETS, 'total'],
    [
      ...report.patients.map((p) => [
        report.asOf,
        p.patientId,
        p.patientName,
        ...AGING_BUCKETS.map((b) => p[b]),
        p.totalCents,
      ]),
      [report.asOf, 'total', null, ...AGING_BUCKETS.map((b) => report.totals[b]), report.totals.totalCents],
    ],
    [3, 4, 5, 6, 7],
  );
}

/** Completed visits without a current coding, oldest first. */
export function uncodedVisitsCsv(report: UncodedVisitsReport): string {
  return csv(
    ['date', 'startsAt', 'appointmentId', 'providerId', 'provider', 'patientId', 'patient'],
    report.visits.map((v) => [
      v.date,
      v.startsAt.toISOString(),
      v.appointmentId,
      v.providerId,
      v.providerName,
      v.patientId,
      v.patientName,
    ]),
    [],
  );
}
