import { downloadFile } from '../../../lib/download-file.ts';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { COMPLIANCE_REPORT_CSV_PATH, type ReportPeriod } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const PeriodSchema = z.object({ startDate: z.string(), endDate: z.string(), timeZone: z.string() });

const RiskPersonSchema = z.object({
  userId: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string().nullable(),
  event: z.string().nullable(),
  count: z.number(),
  firstAt: z.string(),
  lastAt: z.string(),
});
export type RiskPerson = z.infer<typeof RiskPersonSchema>;

const RiskIndicatorSchema = z.object({
  type: z.string(),
  severity: z.string(),
  count: z.number(),
  peopleCount: z.number(),
  people: z.array(RiskPersonSchema),
});
export type RiskIndicator = z.infer<typeof RiskIndicatorSchema>;

export const ComplianceReportSchema = z.object({
  period: PeriodSchema,
  totalEvents: z.number(),
  hipaaEvents: z.number(),
  securityViolations: z.number(),
  uniqueUsers: z.number(),
  eventBreakdown: z.array(z.object({ event: z.string(), count: z.number() })),
  riskIndicators: z.array(RiskIndicatorSchema),
  generatedAt: z.string(),
  generatedBy: z.object({ userId: z.string(), name: z.string(), email: z.string() }),
});
export type ComplianceReport = z.infer<typeof ComplianceReportSchema>;

const StatusCountSchema = z.object({ status: z.string(), count: z.number() });

export const PracticeReportSchema = z.object({
  period: PeriodSchema,
  appointmentsTotal: z.number(),
  byStatus: z.array(StatusCountSchema),
  byProvider: z.array(
    z.object({ providerId: z.string(), name: z.string(), total: z.number(), byStatus: z.array(StatusCountSchema) }),
  ),
  noShows: z.number(),
  dueAppointments: z.number(),
  noShowRate: z.number().nullable(),
  lateCancellations: z.number(),
  lateCancellationRate: z.number().nullable(),
  measures: z.array(z.object({ instrument: z.string(), month: z.string(), count: z.number(), mean: z.number() })),
});
export type PracticeReport = z.infer<typeof PracticeReportSchema>;

const COMPLIANCE_FIELDS = `period { startDate endDate timeZone }
  totalEvents hipaaEvents securityViolations uniqueUsers
  eventBreakdown { event count }
  riskIndicators { type severity count peopleCount people { userId name email role event count firstAt lastAt } }
  generatedAt generatedBy { userId name email }`;

/**
 * Generates the compliance report of a period (a DATA_EXPORT on the server each time): a mutation, so that it runs
 * only when asked, never again on a refetch.
 */
export function useGenerateComplianceReport() {
  return useMutation({
    mutationFn: async ({ period, format }: { period: ReportPeriod; format: 'screen' | 'print' }) => {
      const data = await graphqlRequest(
        `mutation GenerateComplianceReport($input: ReportPeriodInput!, $format: ComplianceReportFormat) {
          generateComplianceReport(input: $input, format: $format) { ${COMPLIANCE_FIELDS} }
        }`,
        z.object({ generateComplianceReport: ComplianceReportSchema }),
        { input: period, format },
      );
      return data.generateComplianceReport;
    },
  });
}

export function practiceReportQueryOptions(period: ReportPeriod) {
  return queryOptions({
    queryKey: ['practice-report', period] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query PracticeReport($input: ReportPeriodInput!) {
          practiceReport(input: $input) {
            period { startDate endDate timeZone }
            appointmentsTotal byStatus { status count }
            byProvider { providerId name total byStatus { status count } }
            noShows dueAppointments noShowRate lateCancellations lateCancellationRate
            measures { instrument month count mean }
          }
        }`,
        z.object({ practiceReport: PracticeReportSchema }),
        { input: period },
        { signal },
      );
      return data.practiceReport;
    },
    // Each read is an audited PRACTICE_REPORT_VIEW: read again when the period changes, not on every focus.
    refetchOnWindowFocus: false,
    staleTime: 5 * 60_000,
  });
}

/** Fetches the compliance report as CSV (audited on the server as a DATA_EXPORT) and saves it as a file. */
export async function downloadComplianceCsv(period: ReportPeriod): Promise<void> {
  const query = new URLSearchParams({ startDate: period.startDate, endDate: period.endDate });
  await downloadFile(`${COMPLIANCE_REPORT_CSV_PATH}?${query.toString()}`, {
    fallbackName: 'compliance-report.csv',
    accept: 'text/csv',
  });
}
