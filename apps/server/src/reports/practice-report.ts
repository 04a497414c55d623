import { sql } from 'drizzle-orm';
import { APPOINTMENT_STATUSES, INSTRUMENTS, type AppointmentStatus, type Instrument } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import type { PeriodBounds } from './compliance-report.ts';

// The practice reports beside the compliance report (decision 035): appointments of the period by status and by
// provider, the no-show and late-cancellation rates, and the PHQ-9 and GAD-7 scores by month. Aggregates only:
// no patient is named, no answer is read.

export interface StatusCount {
  status: AppointmentStatus;
  count: number;
}

export interface ProviderAppointments {
  providerId: string;
  name: string;
  total: number;
  byStatus: StatusCount[];
}

export interface MeasureMonth {
  instrument: Instrument;
  /** YYYY-MM in the practice's time zone. */
  month: string;
  count: number;
  /** The mean total score, to one decimal. */
  mean: number;
}

export interface PracticeFigures {
  period: PeriodBounds;
  appointmentsTotal: number;
  byStatus: StatusCount[];
  byProvider: ProviderAppointments[];
  /** No-shows among the appointments that were due: started before now and not cancelled. */
  noShows: number;
  dueAppointments: number;
  noShowRate: number | null;
  /** Cancellations marked late among every appointment of the period. */
  lateCancellations: number;
  lateCancellationRate: number | null;
  measures: MeasureMonth[];
}

function rate(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

export async function computePracticeFigures(executor: Executor, bounds: PeriodBounds): Promise<PracticeFigures> {
  const inPeriod = sql`a.starts_at >= ${bounds.from}::timestamptz AND a.starts_at < ${bounds.to}::timestamptz`;
  const statusColumns = sql.join(
    APPOINTMENT_STATUSES.map(
      (status) => sql`count(*) FILTER (WHERE a.status = ${status})::int AS ${sql.identifier(status)}`,
    ),
    sql`, `,
  );
  const providers = await executor.execute<
    Record<AppointmentStatus, number> & { provider_id: string; name: string; total: number }
  >(sql`
    SELECT a.provider_id::text AS provider_id, trim(p.first_name || ' ' || p.last_name) AS name,
           count(*)::int AS total, ${statusColumns}
    FROM appointments a JOIN providers p ON p.id = a.provider_id
    WHERE ${inPeriod}
    GROUP BY a.provider_id, p.first_name, p.last_name ORDER BY total DESC, name`);
  const rates = await executor.execute<{ total: number; no_shows: number; due: number; late: number }>(sql`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE a.status = 'no-show')::int AS no_shows,
           count(*) FILTER (WHERE a.status <> 'cancelled' AND a.starts_at < now())::int AS due,
           count(*) FILTER (WHERE a.status = 'cancelled' AND a.cancellation_kind = 'late')::int AS late
    FROM appointments a WHERE ${inPeriod}`);
  const measureRows = await executor.execute<{
    instrument: Instrument;
    month: string;
    count: number;
    mean: number;
  }>(sql`
    SELECT m.instrument, to_char(m.completed_at AT TIME ZONE ${bounds.timeZone}, 'YYYY-MM') AS month,
           count(*)::int AS count, round(avg(m.total), 1)::float8 AS mean
    FROM measures m
    WHERE m.status = 'completed' AND m.completed_at >= ${bounds.from}::timestamptz
      AND m.completed_at < ${bounds.to}::timestamptz
    GROUP BY 1, 2 ORDER BY 2, 1`);

  const byProvider = providers.rows.map((row) => ({
    providerId: row.provider_id,
    name: row.name,
    total: row.total,
    byStatus: APPOINTMENT_STATUSES.map((status) => ({ status, count: row[status] })),
  }));
  const byStatus = APPOINTMENT_STATUSES.map((status) => ({
    status,
    count: byProvider.reduce((total, provider) => total + provider.byStatus.find((s) => s.status === status)!.count, 0),
  }));
  const figures = rates.rows[0]!;
  return {
    period: bounds,
    appointmentsTotal: figures.total,
    byStatus,
    byProvider,
    noShows: figures.no_shows,
    dueAppointments: figures.due,
    noShowRate: rate(figures.no_shows, figures.due),
    lateCancellations: figures.late,
    lateCancellationRate: rate(figures.late, figures.total),
    measures: measureRows.rows.filter((row) => (INSTRUMENTS as readonly string[]).includes(row.instrument)),
  };
}
