import {
  agingBucket,
  BillingAsOfSchema,
  BillingRangeSchema,
  type AgingBucket,
  type BillingReportKind,
  UNCODED_VISITS_MAX,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { Database, Executor } from '../db/client.ts';
import { parseInput } from '../errors.ts';
import {
  billingFiguresByProviderMonth,
  findUncodedVisits,
  unpaidDebitsByAge,
  type BillingTotals,
  type ProviderMonthFigures,
  type UncodedVisit,
} from './billing-reports.repository.ts';

/** How a billing report leaves the server: on the screen or as a CSV file (both audited the same way). */
export type BillingReportFormat = 'screen' | 'csv';

export interface BillingReport {
  from: string;
  to: string;
  rows: ProviderMonthFigures[];
  totals: BillingTotals;
}

export type AgingAmounts = Record<AgingBucket, number> & { totalCents: number };

export interface AgingPatient extends AgingAmounts {
  patientId: string;
  patientName: string;
}

export interface AgingReport {
  asOf: string;
  patients: AgingPatient[];
  totals: AgingAmounts;
}

export interface UncodedVisitsReport {
  from: string;
  to: string;
  timeZone: string;
  visits: UncodedVisit[];
  /** How many there are (the list holds at most UNCODED_VISITS_MAX). */
  total: number;
}

function emptyAmounts(): AgingAmounts {
  return { '0-30': 0, '31-60': 0, '61-90': 0, 'over-90': 0, totalCents: 0 };
}

/**
 * The billing reports of /admin/reports (decision 073, "Reports"), administrators only (`report:read:any`). Each is
 * computed in one REPEATABLE READ transaction that writes its BILLING_REPORT_VIEW entry: the report, its dates, the
 * format and, for the reports naming patients, their ids; never an amount or a name.
 */
export class BillingReportsService {
  readonly #db: Database;
  readonly #timeZone: () => string;

  constructor(options: { db: Database; timeZone: () => string }) {
    this.#db = options.db;
    this.#timeZone = options.timeZone;
  }

  async billingReport(caller: Caller, input: unknown, format: BillingReportFormat = 'screen'): Promise<BillingReport> {
    await authorize(this.#db, caller, 'report:read');
    const range = parseInput(BillingRangeSchema, input);
    return this.#read(caller, async (tx) => {
      const figures = await billingFiguresByProviderMonth(tx, range);
      return {
        report: { from: range.from, to: range.to, ...figures },
        audit: { report: 'billing', format, from: range.from, to: range.to },
      };
    });
  }

  async agingReport(caller: Caller, input: unknown, format: BillingReportFormat = 'screen'): Promise<AgingReport> {
    await authorize(this.#db, caller, 'report:read');
    const { asOf } = parseInput(BillingAsOfSchema, input);
    return this.#read(caller, async (tx) => {
      const rows = await unpaidDebitsByAge(tx, asOf);
      const byPatient = new Map<string, AgingPatient>();
      const totals = emptyAmounts();
      for (const row of rows) {
        let patient = byPatient.get(row.patientId);
        if (!patient) {
          patient = { patientId: row.patientId, patientName: row.patientName, ...emptyAmounts() };
          byPatient.set(row.patientId, patient);
        }
        const bucket = agingBucket(row.daysOld);
        patient[bucket] += row.unpaidCents;
        patient.totalCents += row.unpaidCents;
        totals[bucket] += row.unpaidCents;
        totals.totalCents += row.unpaidCents;
      }
      const patients = [...byPatient.values()];
      return {
        report: { asOf, patients, totals },
        audit: { report: 'aging', format, asOf, patientIds: patients.map((p) => p.patientId) },
      };
    });
  }

  async uncodedVisits(
    caller: Caller,
    input: unknown,
    format: BillingReportFormat = 'screen',
  ): Promise<UncodedVisitsReport> {
    await authorize(this.#db, caller, 'report:read');
    const range = parseInput(BillingRangeSchema, input);
    const timeZone = this.#timeZone();
    return this.#read(caller, async (tx) => {
      // The screen shows the oldest UNCODED_VISITS_MAX; the CSV holds them all.
      const { visits, total } = await findUncodedVisits(
        tx,
        range,
        timeZone,
        format === 'csv' ? null : UNCODED_VISITS_MAX,
      );
      return {
        report: { from: range.from, to: range.to, timeZone, visits, total },
        audit: {
          report: 'uncoded',
          format,
          from: range.from,
          to: range.to,
          timeZone,
          appointmentIds: visits.map((v) => v.appointmentId),
          patientIds: [...new Set(visits.map((v) => v.patientId))],
        },
      };
    });
  }

  /** Computes a report and writes its audit entry in one REPEATABLE READ transaction (one snapshot). */
  #read<R>(
    caller: Caller,
    compute: (tx: Executor) => Promise<{ report: R; audit: { report: BillingReportKind } & Record<string, unknown> }>,
  ): Promise<R> {
    return this.#db.transaction(
      async (tx) => {
        const { report, audit } = await compute(tx);
        await scopeOf(this.#db, caller).audit(tx, 'BILLING_REPORT_VIEW', audit);
        return report;
      },
      { isolationLevel: 'repeatable read' },
    );
  }
}
