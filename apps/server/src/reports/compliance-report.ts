import { sql, type SQL } from 'drizzle-orm';
import {
  AFTER_HOURS_END,
  AFTER_HOURS_START,
  EMERGENCY_ACCESS_INDICATOR_EVENTS,
  FAILED_LOGIN_THRESHOLD,
  RISK_PEOPLE_MAX,
  RISK_SEVERITY_OF,
  SECURITY_VIOLATION_EVENTS,
  type RiskIndicatorType,
  type RiskSeverity,
} from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { findPeopleByIds } from '../users/users.repository.ts';

// The specification's compliance report (generateComplianceReport), computed by PostgreSQL over the audit
// trail of a period (decision 035): every figure is an aggregate of one indexed range of audit_entries.

/** The period as instants: [from, to), PostgreSQL's own text of each (microseconds kept). */
export interface PeriodBounds {
  startDate: string;
  endDate: string;
  timeZone: string;
  from: string;
  to: string;
}

export interface BulkAccessRule {
  /** Distinct patients one person opens within `minutes` that make the indicator. */
  patients: number;
  minutes: number;
}

/** One person named under a risk indicator: who, how many, when (first and last of what counted). */
export interface RiskPerson {
  /** The account's id; null for a failed sign-in with an address no account has. */
  userId: string | null;
  name: string | null;
  /** The account's e-mail, or the address typed at a failed sign-in without an account. */
  email: string | null;
  role: string | null;
  /** The event, where the indicator covers several (emergency access). */
  event: string | null;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

export interface RiskIndicator {
  type: RiskIndicatorType;
  severity: RiskSeverity;
  /** Entries that count (for BULK_RECORD_ACCESS: the highest number of distinct patients one person opened). */
  count: number;
  /** People behind it, most first; at most RISK_PEOPLE_MAX (peopleCount says how many there were). */
  people: RiskPerson[];
  peopleCount: number;
}

export interface EventCount {
  event: string;
  count: number;
}

export interface ComplianceFigures {
  period: PeriodBounds;
  totalEvents: number;
  hipaaEvents: number;
  securityViolations: number;
  uniqueUsers: number;
  eventBreakdown: EventCount[];
  riskIndicators: RiskIndicator[];
}

/** The specification's compliance report: the figures, when and by whom it was generated. */
export interface ComplianceReport extends ComplianceFigures {
  generatedAt: Date;
  generatedBy: { userId: string; name: string; email: string };
}

/** Actors that are not people: an unknown caller and the server itself. */
const NOT_PEOPLE = sql`('anonymous', 'system')`;
/** Whose activity after hours is a risk: the practice's staff (patients use the portal at any hour). */
const STAFF_ROLES = sql`('admin', 'provider')`;
const EMERGENCY_EVENTS = sql`(${sql.join(
  EMERGENCY_ACCESS_INDICATOR_EVENTS.map((event) => sql`${event}`),
  sql`, `,
)})`;

/** The instants of a period of practice dates: from the first day's midnight to the midnight after the last. */
export async function periodBounds(
  executor: Executor,
  period: { startDate: string; endDate: string },
  timeZone: string,
): Promise<PeriodBounds> {
  const result = await executor.execute<{ from: string; to: string }>(sql`
    SELECT (${period.startDate}::date::timestamp AT TIME ZONE ${timeZone})::text AS "from",
           ((${period.endDate}::date + 1)::timestamp AT TIME ZONE ${timeZone})::text AS "to"`);
  const row = result.rows[0]!;
  return { ...period, timeZone, from: row.from, to: row.to };
}

/** An instant as ISO 8601 in UTC with milliseconds, whatever the session's time zone. */
function iso(instant: SQL): SQL {
  return sql`to_char((${instant}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The period's entries of the server's own record: what a browser reported (source 'client') is never counted as fact. */
function inPeriod(bounds: PeriodBounds): SQL {
  return sql`a.timestamp >= ${bounds.from}::timestamptz AND a.timestamp < ${bounds.to}::timestamptz AND a.source = 'server'`;
}

type GroupRow = {
  user_id: string;
  email: string | null;
  event: string | null;
  count: number;
  first_at: string;
  last_at: string;
};

/**
 * Computes the report. Run it in one REPEATABLE READ transaction so that every figure comes from the same
 * snapshot of the trail.
 */
export async function computeComplianceFigures(
  executor: Executor,
  bounds: PeriodBounds,
  bulk: BulkAccessRule,
): Promise<ComplianceFigures> {
  const where = inPeriod(bounds);
  const violations = sql.join(
    SECURITY_VIOLATION_EVENTS.map((e) => sql`${e}`),
    sql`, `,
  );
  // One pass for the totals and the breakdown: a row per event, and the grand total (the empty grouping set).
  const counts = await executor.execute<{
    event: string | null;
    total: number;
    hipaa: number;
    violations: number;
    users: number | null;
  }>(sql`
    SELECT a.event, count(*)::int AS total,
           count(*) FILTER (WHERE a.hipaa_required)::int AS hipaa,
           count(*) FILTER (WHERE a.event IN (${violations}))::int AS violations,
           CASE WHEN GROUPING(a.event) = 1
             THEN count(DISTINCT a.user_id COLLATE "C") FILTER (WHERE a.user_id NOT IN ${NOT_PEOPLE}) END::int AS users
    FROM audit_entries a WHERE ${where}
    GROUP BY GROUPING SETS ((a.event), ())`);
  const totals = counts.rows.find((row) => row.event === null) ?? { total: 0, hipaa: 0, violations: 0, users: null };
  const breakdown = counts.rows
    .filter((row): row is typeof row & { event: string } => row.event !== null)
    .map((row) => ({ event: row.event, count: row.total }))
    .sort((a, b) => b.count - a.count || (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));

  // One pass for the indicators that name people by their entries: failed sign-ins (by account; those with an
  // address no account has, by the address typed), staff activity before 06:00 or after 22:00 on the practice's
  // clock (a failed sign-in is not access), and emergency access (by person and event). An entry can count twice.
  const flagged = await executor.execute<GroupRow & { kind: 'failed' | 'afterHours' | 'emergency' }>(sql`
    SELECT k.kind, a.user_id,
           CASE WHEN k.kind = 'failed' AND a.user_id = 'anonymous' THEN a.details ->> 'email' END AS email,
           CASE WHEN k.kind = 'emergency' THEN a.event END AS event,
           count(*)::int AS count, ${iso(sql`min(a.timestamp)`)} AS first_at, ${iso(sql`max(a.timestamp)`)} AS last_at
    FROM audit_entries a
    CROSS JOIN LATERAL (VALUES
      ('failed', a.event = 'FAILED_LOGIN'),
      ('afterHours', a.event <> 'FAILED_LOGIN' AND a.user_id NOT IN ${NOT_PEOPLE} AND a.user_role IN ${STAFF_ROLES}
        AND ((a.timestamp AT TIME ZONE ${bounds.timeZone})::time < ${AFTER_HOURS_START}::time
          OR (a.timestamp AT TIME ZONE ${bounds.timeZone})::time > ${AFTER_HOURS_END}::time)),
      ('emergency', a.event IN ${EMERGENCY_EVENTS})
    ) AS k(kind, hit)
    WHERE ${where} AND k.hit
    GROUP BY 1, 2, 3, 4`);
  const byCount = (a: GroupRow, b: GroupRow) => b.count - a.count || (a.first_at < b.first_at ? -1 : 1);
  const byTime = (a: GroupRow, b: GroupRow) =>
    a.first_at < b.first_at ? -1 : a.first_at > b.first_at ? 1 : (a.event ?? '') < (b.event ?? '') ? -1 : 1;
  const failed = { rows: flagged.rows.filter((row) => row.kind === 'failed').sort(byCount) };
  const afterHours = { rows: flagged.rows.filter((row) => row.kind === 'afterHours').sort(byCount) };
  const emergency = { rows: flagged.rows.filter((row) => row.kind === 'emergency').sort(byTime) };
  const bulkRows = await bulkRecordAccess(executor, bounds, bulk);

  const indicators: RiskIndicator[] = [];
  const failedTotal = sum(failed.rows);
  if (failedTotal > FAILED_LOGIN_THRESHOLD)
    indicators.push(indicator('MULTIPLE_FAILED_LOGINS', failedTotal, failed.rows));
  if (afterHours.rows.length > 0)
    indicators.push(indicator('AFTER_HOURS_ACCESS', sum(afterHours.rows), afterHours.rows));
  if (bulkRows.length > 0) {
    indicators.push(indicator('BULK_RECORD_ACCESS', Math.max(...bulkRows.map((r) => r.count)), bulkRows));
  }
  if (emergency.rows.length > 0) indicators.push(indicator('EMERGENCY_ACCESS', sum(emergency.rows), emergency.rows));
  await nameThePeople(executor, indicators);

  return {
    period: bounds,
    totalEvents: totals.total,
    hipaaEvents: totals.hipaa,
    securityViolations: totals.violations,
    uniqueUsers: totals.users ?? 0,
    eventBreakdown: breakdown,
    riskIndicators: indicators,
  };
}

/**
 * People who opened at least `bulk.patients` distinct patients' records within `bulk.minutes`, with the highest
 * number and when it was reached. An entry opens a record when it names exactly one patient (`details.patientIds`);
 * a list page names many and is not counted. Each access keeps its patient "recent" for the window's length: the
 * accesses of one person to one patient make spans ([first, last + window)), an access opening a span when the
 * one before it is a window or more earlier and closing it when the next is a window or more later. The number of
 * that person's spans open at once is the number of distinct patients opened within the window, found by one
 * sweep over the spans' edges. Every id is compared byte-wise (COLLATE "C"): the sorts are the query's cost.
 */
async function bulkRecordAccess(executor: Executor, bounds: PeriodBounds, bulk: BulkAccessRule): Promise<GroupRow[]> {
  const window = sql`make_interval(mins => ${bulk.minutes})`;
  const result = await executor.execute<GroupRow>(sql`
    WITH opened AS (
      SELECT a.user_id COLLATE "C" AS user_id, (a.details -> 'patientIds' ->> 0) COLLATE "C" AS patient_id,
             a.timestamp AS at
      FROM audit_entries a
      WHERE ${inPeriod(bounds)} AND a.user_id NOT IN ${NOT_PEOPLE} AND a.user_role <> 'patient'
        AND jsonb_typeof(a.details -> 'patientIds') = 'array' AND jsonb_array_length(a.details -> 'patientIds') = 1
    ), marked AS (
      SELECT user_id, at,
             coalesce(at >= lag(at) OVER w + ${window}, true) AS opens,
             coalesce(lead(at) OVER w >= at + ${window}, true) AS closes
      FROM opened WINDOW w AS (PARTITION BY user_id, patient_id ORDER BY at)
    ), edges AS (
      SELECT user_id, at, 1 AS delta FROM marked WHERE opens
      UNION ALL SELECT user_id, at + ${window}, -1 FROM marked WHERE closes
    ), swept AS (
      -- At one instant a span closing goes before one opening: the spans are half-open.
      SELECT user_id, at, delta,
             sum(delta) OVER (PARTITION BY user_id ORDER BY at, delta ROWS UNBOUNDED PRECEDING) AS open_spans
      FROM edges
    ), peaks AS (
      SELECT DISTINCT ON (user_id) user_id, open_spans::int AS count, at
      FROM swept WHERE delta = 1 AND open_spans >= ${bulk.patients} ORDER BY user_id, open_spans DESC, at
    )
    SELECT user_id, NULL AS email, NULL AS event, count,
           ${iso(sql`at - ${window}`)} AS first_at, ${iso(sql`at`)} AS last_at
    FROM peaks ORDER BY count DESC, at`);
  return result.rows;
}

function sum(rows: GroupRow[]): number {
  return rows.reduce((total, row) => total + row.count, 0);
}

function indicator(type: RiskIndicatorType, count: number, rows: GroupRow[]): RiskIndicator {
  return {
    type,
    severity: RISK_SEVERITY_OF[type],
    count,
    peopleCount: rows.length,
    people: rows.slice(0, RISK_PEOPLE_MAX).map((row) => ({
      userId: row.user_id === 'anonymous' ? null : row.user_id,
      name: null,
      email: row.email,
      role: null,
      event: row.event,
      count: row.count,
      firstAt: new Date(row.first_at),
      lastAt: new Date(row.last_at),
    })),
  };
}

/** Fills in each named account's name, e-mail and role (one query for the whole report). */
async function nameThePeople(executor: Executor, indicators: RiskIndicator[]): Promise<void> {
  const byId = await findPeopleByIds(
    executor,
    indicators.flatMap((i) => i.people.map((p) => p.userId)),
  );
  for (const person of indicators.flatMap((i) => i.people)) {
    const account = person.userId ? byId.get(person.userId) : undefined;
    if (!account) continue;
    person.name = account.name;
    person.email = account.email;
    person.role = account.role;
  }
}
