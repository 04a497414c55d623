import { sql } from 'drizzle-orm';
import { CONSOLE_RECENT_ACTIVITY } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { userAccounts } from '../users/users.repository.ts';

/** Accounts of one role (null: no role) in one state. */
export interface AccountCount {
  role: string | null;
  active: boolean;
  count: number;
}

/** The outbox's mails that have not reached their recipient. */
export interface UndeliveredMail {
  /** Queued or being sent. */
  waiting: number;
  /** Given up after their retries. */
  failed: number;
  /** Kept without a mail server (SMTP_URL unset). */
  kept: number;
  /** When the oldest waiting mail was written. */
  oldestWaitingAt: Date | null;
}

/** The newest verification of the audit chain, as recorded in the trail itself. */
export interface ChainVerification {
  ok: boolean;
  checkedAt: Date;
  entriesChecked: number | null;
}

/** The backups (table backup_runs): the newest run's state, and when the newest good one finished. */
export interface BackupState {
  /** The run running now, else the one that finished last (a skipped one counts as finished when it was skipped). */
  lastStatus: 'running' | 'succeeded' | 'failed' | 'skipped' | null;
  lastSucceededAt: Date | null;
}

/** One line of the console's recent activity: what happened, who did it, when. Never details or patients. */
export interface ActivityItem {
  event: string;
  at: Date;
  actorRole: string;
  /** The account's name for staff; null for patients (their name is health information here), the system, visitors. */
  actorName: string | null;
}

export interface ConsoleStats {
  accounts: AccountCount[];
  activePatients: number;
  appointmentsToday: number;
  appointmentsThisWeek: number;
  openAccessRequests: number;
  undeliveredMail: UndeliveredMail;
  chainVerification: ChainVerification | null;
  backup: BackupState;
  recentActivity: ActivityItem[];
}

/** Bounds of the practice's day and week, as instants. */
export interface ConsolePeriods {
  todayStart: Date;
  tomorrowStart: Date;
  weekStart: Date;
  nextWeekStart: Date;
}

interface StatsRow {
  accounts: AccountCount[];
  active_patients: number;
  appointments_today: number;
  appointments_week: number;
  open_access_requests: number;
  mail: { waiting: number; failed: number; kept: number; oldest_waiting_at: string | null };
  verification: {
    event: string;
    at: string;
    details: { ok?: unknown; entriesChecked?: unknown; checkedAt?: unknown };
  } | null;
  recent: { event: string; at: string; role: string; name: string | null }[];
  backup_status: 'running' | 'succeeded' | 'failed' | 'skipped' | null;
  backup_succeeded_at: string | null;
}

/**
 * Every figure of the console in one statement (one round trip). Each figure is a small indexed count; the
 * recent activity reads the newest entries by the trail's timestamp index.
 */
export async function readConsoleStats(executor: Executor, periods: ConsolePeriods): Promise<ConsoleStats> {
  const result = await executor.execute<StatsRow & Record<string, unknown>>(sql`
    SELECT
      (SELECT coalesce(json_agg(json_build_object('role', role, 'active', is_active, 'count', n)
                                ORDER BY role NULLS LAST, is_active DESC), '[]'::json)
         FROM (SELECT role, is_active, count(*)::int AS n FROM ${userAccounts('u')} GROUP BY role, is_active) a) AS accounts,
      (SELECT count(*)::int FROM ${patientRecords('p')} WHERE deleted_at IS NULL AND is_active) AS active_patients,
      (SELECT count(*)::int FROM appointments
        WHERE starts_at >= ${periods.todayStart.toISOString()}::timestamptz
          AND starts_at < ${periods.tomorrowStart.toISOString()}::timestamptz
          AND status <> 'cancelled') AS appointments_today,
      (SELECT count(*)::int FROM appointments
        WHERE starts_at >= ${periods.weekStart.toISOString()}::timestamptz
          AND starts_at < ${periods.nextWeekStart.toISOString()}::timestamptz
          AND status <> 'cancelled') AS appointments_week,
      (SELECT count(*)::int FROM access_requests WHERE status = 'new') AS open_access_requests,
      (SELECT json_build_object(
                'waiting', count(*) FILTER (WHERE status IN ('queued', 'sending')),
                'failed', count(*) FILTER (WHERE status = 'failed'),
                'kept', count(*) FILTER (WHERE status = 'kept'),
                'oldest_waiting_at', min(created_at) FILTER (WHERE status IN ('queued', 'sending')))
         FROM mail_outbox WHERE status <> 'sent') AS mail,
      (SELECT json_build_object('event', event, 'at', timestamp, 'details', details)
         FROM audit_entries WHERE event IN ('AUDIT_CHAIN_VERIFIED', 'AUDIT_CHAIN_BROKEN')
         ORDER BY timestamp DESC, id DESC LIMIT 1) AS verification,
      (SELECT status FROM backup_runs
        ORDER BY coalesce(finished_at, 'infinity'::timestamptz) DESC, started_at DESC LIMIT 1) AS backup_status,
      (SELECT max(finished_at)::text FROM backup_runs WHERE status = 'succeeded') AS backup_succeeded_at,
      (SELECT coalesce(json_agg(json_build_object('event', r.event, 'at', r.timestamp, 'role', r.user_role,
                                                  'name', r.name) ORDER BY r.timestamp DESC, r.id DESC), '[]'::json)
         FROM (SELECT e.id, e.event, e.timestamp, e.user_role,
                      -- Staff by name; a patient's name would say who is in care here (health information).
                      CASE WHEN u.role IN ('admin', 'provider') THEN u.name END AS name
                 FROM audit_entries e
                 LEFT JOIN ${userAccounts('u')}
                   ON u.id = CASE WHEN e.user_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                                  THEN e.user_id::uuid END
                ORDER BY e.timestamp DESC, e.id DESC
                LIMIT ${CONSOLE_RECENT_ACTIVITY}) r) AS recent
  `);
  const row = result.rows[0];
  if (!row) throw new Error('console statistics: no row');
  const verification = row.verification;
  return {
    accounts: row.accounts,
    activePatients: row.active_patients,
    appointmentsToday: row.appointments_today,
    appointmentsThisWeek: row.appointments_week,
    openAccessRequests: row.open_access_requests,
    undeliveredMail: {
      waiting: Number(row.mail.waiting),
      failed: Number(row.mail.failed),
      kept: Number(row.mail.kept),
      oldestWaitingAt: row.mail.oldest_waiting_at ? new Date(row.mail.oldest_waiting_at) : null,
    },
    chainVerification: verification
      ? {
          ok: verification.event === 'AUDIT_CHAIN_VERIFIED' && verification.details.ok !== false,
          checkedAt: new Date(
            typeof verification.details.checkedAt === 'string' ? verification.details.checkedAt : verification.at,
          ),
          entriesChecked:
            typeof verification.details.entriesChecked === 'number' ? verification.details.entriesChecked : null,
        }
      : null,
    backup: {
      lastStatus: row.backup_status,
      lastSucceededAt: row.backup_succeeded_at ? new Date(row.backup_succeeded_at) : null,
    },
    recentActivity: row.recent.map((item) => ({
      event: item.event,
      at: new Date(item.at),
      actorRole: item.role,
      actorName: item.name,
    })),
  };
}

/** The outbox's mails not delivered (the health screen's mail check). */
export async function readUndeliveredMail(executor: Executor): Promise<UndeliveredMail> {
  const result = await executor.execute<{ waiting: number; failed: number; kept: number; oldest: string | null }>(sql`
    SELECT count(*) FILTER (WHERE status IN ('queued', 'sending'))::int AS waiting,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'kept')::int AS kept,
           min(created_at) FILTER (WHERE status IN ('queued', 'sending'))::text AS oldest
    FROM mail_outbox WHERE status <> 'sent'`);
  const row = result.rows[0];
  return {
    waiting: row?.waiting ?? 0,
    failed: row?.failed ?? 0,
    kept: row?.kept ?? 0,
    oldestWaitingAt: row?.oldest ? new Date(row.oldest) : null,
  };
}
