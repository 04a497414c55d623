import { sql } from 'drizzle-orm';
import { ReportPeriodSchema } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { parseInput } from '../errors.ts';
import { complianceReportCsv } from './compliance-csv.ts';
import {
  computeComplianceFigures,
  periodBounds,
  type BulkAccessRule,
  type ComplianceReport,
} from './compliance-report.ts';
import { computePracticeFigures, type PracticeFigures } from './practice-report.ts';

/** How a compliance report leaves the server: on the screen, as the printable page, or as a CSV file. */
export type ComplianceReportFormat = 'screen' | 'print' | 'csv';

/**
 * The reports of /admin/reports (decision 035), administrators only. Each report is computed by PostgreSQL in
 * one REPEATABLE READ transaction (every figure from the same snapshot) that also writes its audit entry:
 * generating a compliance report is a DATA_EXPORT, reading the practice reports a PRACTICE_REPORT_VIEW.
 */
export class ReportsService {
  readonly #db: Database;
  readonly #timeZone: () => string;
  readonly #bulk: BulkAccessRule;

  constructor(options: { db: Database; timeZone: () => string; bulkAccess: BulkAccessRule }) {
    this.#db = options.db;
    this.#timeZone = options.timeZone;
    this.#bulk = options.bulkAccess;
  }

  async complianceReport(
    caller: Caller,
    input: unknown,
    format: ComplianceReportFormat = 'screen',
  ): Promise<ComplianceReport> {
    await authorize(this.#db, caller, 'report:read');
    const period = parseInput(ReportPeriodSchema, input);
    return this.#db.transaction(
      async (tx) => {
        // A month of a busy practice is hundreds of thousands of entries, grouped and sorted in memory rather than
        // on disk (PostgreSQL's default is 4 MB per sort); for this transaction only.
        await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
        const bounds = await periodBounds(tx, period, this.#timeZone());
        const figures = await computeComplianceFigures(tx, bounds, this.#bulk);
        const generatedAt = new Date();
        await scopeOf(this.#db, caller).audit(
          tx,
          'DATA_EXPORT',
          {
            report: 'compliance',
            format,
            startDate: period.startDate,
            endDate: period.endDate,
            timeZone: bounds.timeZone,
            totalEvents: figures.totalEvents,
          },
          { timestamp: generatedAt },
        );
        return {
          ...figures,
          generatedAt,
          generatedBy: { userId: caller.user.id, name: caller.user.name, email: caller.user.email },
        };
      },
      { isolationLevel: 'repeatable read' },
    );
  }

  /** The compliance report as a CSV file (audited as a DATA_EXPORT in the format csv). */
  async complianceReportCsv(caller: Caller, input: unknown): Promise<{ fileName: string; csv: string }> {
    const report = await this.complianceReport(caller, input, 'csv');
    return {
      fileName: `compliance-report-${report.period.startDate}-to-${report.period.endDate}.csv`,
      csv: complianceReportCsv(report),
    };
  }

  async practiceReport(caller: Caller, input: unknown): Promise<PracticeFigures> {
    await authorize(this.#db, caller, 'report:read');
    const period = parseInput(ReportPeriodSchema, input);
    return this.#db.transaction(
      async (tx) => {
        const bounds = await periodBounds(tx, period, this.#timeZone());
        const figures = await computePracticeFigures(tx, bounds);
        await scopeOf(this.#db, caller).audit(tx, 'PRACTICE_REPORT_VIEW', {
          startDate: period.startDate,
          endDate: period.endDate,
          timeZone: bounds.timeZone,
        });
        return figures;
      },
      { isolationLevel: 'repeatable read' },
    );
  }
}
