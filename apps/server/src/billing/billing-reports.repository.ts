import { sql } from 'drizzle-orm';
import { UNCODED_VISITS_MAX, type BillingRange } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';

// The billing reports' reads (decision 073, "Reports"). Amounts are summed by PostgreSQL as bigint (integer cents,
// never a float) and read as text, then as JavaScript numbers: a practice's sums stay far below 2^53 cents.

/** One provider's month: charges, payments (positive) and adjustments (signed), in cents. */
export interface ProviderMonthFigures {
  /** Null for entries made for no provider (a payment on account). */
  providerId: string | null;
  providerName: string | null;
  /** YYYY-MM of the entries' day (the practice's calendar). */
  month: string;
  chargesCents: number;
  paymentsCents: number;
  adjustmentsCents: number;
}

export interface BillingTotals {
  chargesCents: number;
  paymentsCents: number;
  adjustmentsCents: number;
}

type FigureRow = {
  provider_id: string | null;
  provider_name: string | null;
  month: string | null;
  grand: boolean;
  charges: string;
  payments: string;
  adjustments: string;
};

/**
 * Charges, payments and adjustments of the entries dated within `range`, by provider and month, and their totals,
 * in one query (the empty grouping set is the totals). A reversal counts against the kind of the entry it reverses,
 * on its own day: a charge reversed in March lowers March's charges. Payments are shown positive (the ledger signs
 * them by their effect on the balance, negative).
 */
export async function billingFiguresByProviderMonth(
  executor: Executor,
  range: BillingRange,
): Promise<{ rows: ProviderMonthFigures[]; totals: BillingTotals }> {
  const result = await executor.execute<FigureRow>(sql`
    WITH entries AS (
      SELECT coalesce(e.provider_id, o.provider_id) AS provider_id,
             to_char(e.entry_date, 'YYYY-MM') AS month,
             coalesce(o.kind, e.kind) AS counts_as,
             e.amount_cents
      FROM ledger_entries e LEFT JOIN ledger_entries o ON o.id = e.reverses_id
      WHERE e.entry_date BETWEEN ${range.from}::date AND ${range.to}::date
    )
    SELECT x.provider_id::text AS provider_id,
           CASE WHEN GROUPING(x.provider_id) = 0 THEN max(trim(p.first_name || ' ' || p.last_name)) END AS provider_name,
           x.month, GROUPING(x.provider_id, x.month) = 3 AS grand,
           coalesce(sum(x.amount_cents) FILTER (WHERE x.counts_as = 'charge'), 0)::bigint::text AS charges,
           (-coalesce(sum(x.amount_cents) FILTER (WHERE x.counts_as = 'payment'), 0))::bigint::text AS payments,
           coalesce(sum(x.amount_cents) FILTER (WHERE x.counts_as = 'adjustment'), 0)::bigint::text AS adjustments
    FROM entries x LEFT JOIN providers p ON p.id = x.provider_id
    GROUP BY GROUPING SETS ((x.provider_id, x.month), ())
    ORDER BY x.month, provider_name NULLS LAST, x.provider_id`);
  const figures = (row: FigureRow): BillingTotals => ({
    chargesCents: Number(row.charges),
    paymentsCents: Number(row.payments),
    adjustmentsCents: Number(row.adjustments),
  });
  const grand = result.rows.find((row) => row.grand);
  return {
    rows: result.rows
      .filter((row) => !row.grand)
      .map((row) => ({
        providerId: row.provider_id,
        providerName: row.provider_name,
        month: row.month!,
        ...figures(row),
      })),
    totals: grand ? figures(grand) : { chargesCents: 0, paymentsCents: 0, adjustmentsCents: 0 },
  };
}

/** The unpaid part of a patient's debits of one age (days from their day to the report's day). */
export interface UnpaidByAge {
  patientId: string;
  patientName: string;
  daysOld: number;
  unpaidCents: number;
}

/**
 * The unpaid debits of every patient whose balance on `asOf` is above 0, by age in days. Every entry dated on or
 * before `asOf` counts. A debit is an entry that raises the balance (a charge, aged from its date of service; an
 * increasing adjustment or the reversal of a payment, aged from the day it was entered); every entry that lowers it
 * (a payment, a decreasing adjustment, the reversal of a charge) is a credit, and the credits together pay the
 * oldest debits first: a debit is unpaid by as much as the running total of debits up to it exceeds the credits.
 */
export async function unpaidDebitsByAge(executor: Executor, asOf: string): Promise<UnpaidByAge[]> {
  const result = await executor.execute<{
    patient_id: string;
    patient_name: string;
    days_old: number;
    unpaid: string;
  }>(sql`
    WITH counted AS (
      SELECT e.* FROM ledger_entries e WHERE e.entry_date <= ${asOf}::date
    ), balances AS (
      SELECT patient_id, sum(amount_cents) FILTER (WHERE amount_cents < 0) AS credits
      FROM counted GROUP BY patient_id HAVING sum(amount_cents) > 0
    ), debits AS (
      SELECT c.patient_id, c.entry_date, c.amount_cents, -coalesce(b.credits, 0) AS credits,
             sum(c.amount_cents) OVER (
               PARTITION BY c.patient_id ORDER BY c.entry_date, c.entered_at, c.id ROWS UNBOUNDED PRECEDING
             ) AS running
      FROM counted c JOIN balances b ON b.patient_id = c.patient_id
      WHERE c.amount_cents > 0
    )
    SELECT d.patient_id::text AS patient_id, trim(p.first_name || ' ' || p.last_name) AS patient_name,
           (${asOf}::date - d.entry_date)::int AS days_old,
           sum(greatest(0, least(d.amount_cents, d.running - d.credits)))::bigint::text AS unpaid
    FROM debits d JOIN patients p ON p.id = d.patient_id
    GROUP BY d.patient_id, p.first_name, p.last_name, d.entry_date
    HAVING sum(greatest(0, least(d.amount_cents, d.running - d.credits))) > 0
    ORDER BY patient_name, d.patient_id, days_old DESC`);
  return result.rows.map((row) => ({
    patientId: row.patient_id,
    patientName: row.patient_name,
    daysOld: row.days_old,
    unpaidCents: Number(row.unpaid),
  }));
}

/** A completed visit without a current coding. */
export interface UncodedVisit {
  appointmentId: string;
  /** The visit's day in the practice's calendar. */
  date: string;
  startsAt: Date;
  providerId: string;
  providerName: string;
  patientId: string;
  patientName: string;
}

/**
 * Completed visits whose day (in `timeZone`) is within `range` and that have no current coding, oldest first: at
 * most `limit` of them (null: all, for the CSV), and how many there are.
 */
export async function findUncodedVisits(
  executor: Executor,
  range: BillingRange,
  timeZone: string,
  limit: number | null = UNCODED_VISITS_MAX,
): Promise<{ visits: UncodedVisit[]; total: number }> {
  const result = await executor.execute<{
    appointment_id: string;
    date: string;
    starts_at: string;
    provider_id: string;
    provider_name: string;
    patient_id: string;
    patient_name: string;
    total: number;
  }>(sql`
    SELECT a.id::text AS appointment_id, to_char(a.starts_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS date,
           to_char(a.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS starts_at,
           a.provider_id::text AS provider_id, trim(pr.first_name || ' ' || pr.last_name) AS provider_name,
           a.patient_id::text AS patient_id, trim(pa.first_name || ' ' || pa.last_name) AS patient_name,
           count(*) OVER ()::int AS total
    FROM appointments a
    JOIN providers pr ON pr.id = a.provider_id
    JOIN patients pa ON pa.id = a.patient_id
    WHERE a.status = 'completed'
      AND a.starts_at >= (${range.from}::date::timestamp AT TIME ZONE ${timeZone})
      AND a.starts_at < ((${range.to}::date + 1)::timestamp AT TIME ZONE ${timeZone})
      AND NOT EXISTS (
        SELECT 1 FROM visit_codings vc WHERE vc.appointment_id = a.id AND vc.superseded_at IS NULL
      )
    ORDER BY a.starts_at, a.id
    LIMIT ${limit}`);
  return {
    total: result.rows[0]?.total ?? 0,
    visits: result.rows.map((row) => ({
      appointmentId: row.appointment_id,
      date: row.date,
      startsAt: new Date(row.starts_at),
      providerId: row.provider_id,
      providerName: row.provider_name,
      patientId: row.patient_id,
      patientName: row.patient_name,
    })),
  };
}
