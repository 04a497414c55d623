import { downloadFile } from '../../../lib/download-file.ts';
import { queryOptions } from '@tanstack/react-query';
import { BILLING_REPORT_CSV_PATHS, type BillingReportKind } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

/** A range of the billing reports: the first and the last day, both included (the practice's calendar). */
export interface BillingReportRange {
  from: string;
  to: string;
}

const FiguresSchema = z.object({ chargesCents: z.number(), paymentsCents: z.number(), adjustmentsCents: z.number() });

export const BillingReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(
    FiguresSchema.extend({ providerId: z.string().nullable(), providerName: z.string().nullable(), month: z.string() }),
  ),
  totals: FiguresSchema,
});
export type BillingReport = z.infer<typeof BillingReportSchema>;

const BucketsSchema = z.array(z.object({ bucket: z.string(), cents: z.number() }));

export const AgingReportSchema = z.object({
  asOf: z.string(),
  totalCents: z.number(),
  buckets: BucketsSchema,
  patients: z.array(
    z.object({ patientId: z.string(), patientName: z.string(), totalCents: z.number(), buckets: BucketsSchema }),
  ),
});
export type AgingReport = z.infer<typeof AgingReportSchema>;

export const UncodedVisitsSchema = z.object({
  from: z.string(),
  to: z.string(),
  total: z.number(),
  visits: z.array(
    z.object({
      appointmentId: z.string(),
      date: z.string(),
      startsAt: z.string(),
      providerName: z.string(),
      patientId: z.string(),
      patientName: z.string(),
    }),
  ),
});
export type UncodedVisits = z.infer<typeof UncodedVisitsSchema>;

// Each read is an audited BILLING_REPORT_VIEW: read again when the dates change, not on every focus.
const READ_ONCE = { refetchOnWindowFocus: false, staleTime: 5 * 60_000 } as const;

export function billingReportQueryOptions(range: BillingReportRange) {
  return queryOptions({
    queryKey: ['billing-report', range] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query BillingReport($range: BillingReportRangeInput!) {
          billingReport(range: $range) {
            from to
            rows { providerId providerName month chargesCents paymentsCents adjustmentsCents }
            totals { chargesCents paymentsCents adjustmentsCents }
          }
        }`,
        z.object({ billingReport: BillingReportSchema }),
        { range },
        { signal },
      );
      return data.billingReport;
    },
    ...READ_ONCE,
  });
}

export function agingReportQueryOptions(asOf: string) {
  return queryOptions({
    queryKey: ['aging-report', asOf] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query AgingReport($asOf: String!) {
          agingReport(asOf: $asOf) {
            asOf totalCents buckets { bucket cents }
            patients { patientId patientName totalCents buckets { bucket cents } }
          }
        }`,
        z.object({ agingReport: AgingReportSchema }),
        { asOf },
        { signal },
      );
      return data.agingReport;
    },
    ...READ_ONCE,
  });
}

export function uncodedVisitsQueryOptions(range: BillingReportRange) {
  return queryOptions({
    queryKey: ['uncoded-visits', range] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query UncodedVisits($range: BillingReportRangeInput!) {
          uncodedVisits(range: $range) {
            from to total
            visits { appointmentId date startsAt providerName patientId patientName }
          }
        }`,
        z.object({ uncodedVisits: UncodedVisitsSchema }),
        { range },
        { signal },
      );
      return data.uncodedVisits;
    },
    ...READ_ONCE,
  });
}

/**
 * Fetches a billing report as CSV (audited on the server) and saves it as a file: the dates in the query, never a
 * name; the server names the file by the report and its dates.
 */
export async function downloadBillingCsv(kind: BillingReportKind, dates: Record<string, string>): Promise<void> {
  await downloadFile(`${BILLING_REPORT_CSV_PATHS[kind]}?${new URLSearchParams(dates).toString()}`, {
    fallbackName: `${kind}-report.csv`,
    accept: 'text/csv',
  });
}
