import type { FastifyInstance } from 'fastify';
import { COMPLIANCE_REPORT_CSV_PATH } from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import type { ReportsService } from './reports.service.ts';

/**
 * The compliance report as a CSV download (decision 035): GET with the period in the query (dates only, never
 * health data) and the session cookie; the service checks the caller, validates the period and audits the export.
 */
export function registerReportRoutes(app: FastifyInstance, reports: ReportsService): void {
  app.get<{ Querystring: { startDate?: string; endDate?: string } }>(
    COMPLIANCE_REPORT_CSV_PATH,
    { config: { session: 'required' } },
    async (request, reply) => {
      const { fileName, csv } = await reports.complianceReportCsv(
        callerOfRequest(request, 'downloadComplianceReport'),
        { startDate: request.query.startDate, endDate: request.query.endDate },
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
