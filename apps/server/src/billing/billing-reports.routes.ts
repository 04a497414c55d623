import type { FastifyInstance } from 'fastify';
import { BILLING_REPORT_CSV_PATHS, type BillingReportKind } from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import { agingReportCsv, billingReportCsv, uncodedVisitsCsv } from './billing-reports-csv.ts';
import type { BillingReportsService } from './billing-reports.service.ts';

type Query = { from?: string; to?: string; asOf?: string };

/**
 * The billing reports as CSV downloads (decision 073), as the compliance report's (decision 035): GET with the
 * dates in the query (never a name) and the session cookie; the service checks the caller, validates the dates
 * and audits the download. File names hold the report and its dates only.
 */
export function registerBillingReportRoutes(app: FastifyInstance, reports: BillingReportsService): void {
  const files: Record<
    BillingReportKind,
    (
      caller: Parameters<BillingReportsService['billingReport']>[0],
      query: Query,
    ) => Promise<{ fileName: string; csv: string }>
  > = {
    billing: async (caller, query) => {
      const report = await reports.billingReport(caller, { from: query.from, to: query.to }, 'csv');
      return { fileName: `billing-report-${report.from}-to-${report.to}.csv`, csv: billingReportCsv(report) };
    },
    aging: async (caller, query) => {
      const report = await reports.agingReport(caller, { asOf: query.asOf }, 'csv');
      return { fileName: `aging-report-${report.asOf}.csv`, csv: agingReportCsv(report) };
    },
    uncoded: async (caller, query) => {
      const report = await reports.uncodedVisits(caller, { from: query.from, to: query.to }, 'csv');
      return { fileName: `uncoded-visits-${report.from}-to-${report.to}.csv`, csv: uncodedVisitsCsv(report) };
    },
  };
  for (const [kind, file] of Object.entries(files) as [BillingReportKind, (typeof files)[BillingReportKind]][]) {
    app.get<{ Querystring: Query }>(
      BILLING_REPORT_CSV_PATHS[kind],
      { config: { session: 'required' } },
      async (request, reply) => {
        const { fileName, csv } = await file(
          callerOfRequest(request, `download${kind[0]!.toUpperCase()}${kind.slice(1)}BillingReport`),
          request.query,
        );
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          .send(csv);
      },
    );
  }
}
