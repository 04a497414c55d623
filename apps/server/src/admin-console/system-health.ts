import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import {
  HEALTH_CHECKS,
  HEALTH_LIMITS,
  worseVerdict,
  type HealthCheckName,
  type HealthReason,
  type HealthVerdict,
} from '@telehealth/shared';
import { readLastAnchor } from '../audit/audit-anchors.ts';
import type { Executor } from '../db/client.ts';
import { selfReschedulingTasks } from '../jobs/tasks.ts';
import type { BACKUP_STATUSES } from '../practice-data/data.table.ts';

type BackupStatus = (typeof BACKUP_STATUSES)[number];

// What /admin/health and /metrics read. Each figure is one cheap query (counts over small or indexed sets);
// a check that cannot be made says so (checkFailed) instead of failing the whole answer.

export interface CheckResult {
  verdict: HealthVerdict;
  reason: HealthReason;
}

export interface JobQueueFigures {
  /** Jobs waiting to run, now or later (not the audit sealer, which is always pending). */
  pending: number;
  /** Jobs running now. */
  running: number;
  /** Jobs due longer than HEALTH_LIMITS.jobOverdueSeconds ago and not started. */
  overdue: number;
  /** Jobs that failed at least once and wait for their retry. */
  retrying: number;
  /**
   * Jobs that gave up after their last attempt. One of a periodic task (the crontab's, the audit sealer) is
   * cleared when the next run of its task succeeds; others stay until removed.
   */
  failed: number;
  /** The newest job that gave up: its task, the start of its last error, and when. */
  lastGivenUp: GivenUpJob | null;
}

export interface GivenUpJob {
  task: string;
  lastError: string | null;
  at: Date;
}

/** How much of a given-up job's last error the health screen shows. */
const LAST_ERROR_SHOWN = 300;

/** Counts of graphile-worker's jobs (decision 014), in one statement over its `jobs` view. */
export async function readJobQueueFigures(executor: Executor): Promise<JobQueueFigures> {
  const result = await executor.execute<
    Omit<JobQueueFigures, 'lastGivenUp'> & {
      last_given_up: { task: string; lastError: string | null; at: string } | null;
    } & Record<string, unknown>
  >(sql`
    SELECT
      count(*) FILTER (WHERE attempts < max_attempts
                         AND task_identifier <> ALL(${`{${selfReschedulingTasks().join(',')}}`}::text[]))::int AS pending,
      count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
      count(*) FILTER (WHERE attempts < max_attempts AND locked_at IS NULL
                         AND run_at < now() - make_interval(secs => ${HEALTH_LIMITS.jobOverdueSeconds}))::int AS overdue,
      count(*) FILTER (WHERE attempts > 0 AND attempts < max_attempts AND last_error IS NOT NULL)::int AS retrying,
      -- graphile-worker counts an attempt when it takes a job: a job running its last attempt is not failed yet.
      count(*) FILTER (WHERE attempts >= max_attempts AND locked_at IS NULL)::int AS failed,
      (SELECT json_build_object('task', g.task_identifier, 'lastError', left(g.last_error, ${LAST_ERROR_SHOWN}),
                                'at', g.updated_at)
       FROM graphile_worker.jobs g WHERE g.attempts >= g.max_attempts AND g.locked_at IS NULL
       ORDER BY g.updated_at DESC LIMIT 1) AS last_given_up
    FROM graphile_worker.jobs`);
  const row = result.rows[0];
  return {
    pending: row?.pending ?? 0,
    running: row?.running ?? 0,
    overdue: row?.overdue ?? 0,
    retrying: row?.retrying ?? 0,
    failed: row?.failed ?? 0,
    lastGivenUp: row?.last_given_up
      ? { task: row.last_given_up.task, lastError: row.last_given_up.lastError, at: new Date(row.last_given_up.at) }
      : null,
  };
}

export function judgeJobQueue(jobs: Omit<JobQueueFigures, 'lastGivenUp'>): CheckResult {
  if (jobs.failed > 0) return { verdict: 'ATTENTION', reason: 'jobsFailed' };
  if (jobs.overdue > 0) return { verdict: 'ATTENTION', reason: 'jobsOverdue' };
  if (jobs.retrying > 0) return { verdict: 'ATTENTION', reason: 'jobsFailing' };
  return { verdict: 'OK', reason: 'ok' };
}

export interface SealerFigures {
  /** The chain's newest position, and when it was sealed. */
  headPosition: number | null;
  lastSealedAt: Date | null;
  /** Entries not sealed yet (counted up to 10,000), and how long the oldest has waited. */
  unsealed: number;
  lagSeconds: number;
  /** The newest anchor in this instance's DATA_DIR/audit-anchors.log. */
  lastAnchorPosition: number | null;
  lastAnchorAt: Date | null;
}

const UNSEALED_COUNT_CAP = 10_000;

/**
 * The audit sealer's progress (decision 015): the chain's head, the entries after it in seal order (read by the
 * seal-order index, at most UNSEALED_COUNT_CAP of them) and how long the oldest of them has waited.
 */
export async function readSealerFigures(executor: Executor, anchorsFile: string): Promise<SealerFigures> {
  const result = await executor.execute<{
    position: number | null;
    sealed_at: string | null;
    unsealed: number;
    lag_seconds: number | null;
  }>(sql`
    WITH head AS (SELECT position, sealed_at, xact_id, entry_id FROM audit_chain ORDER BY position DESC LIMIT 1),
    waiting AS (
      SELECT e.timestamp FROM audit_entries e
      WHERE (e.xact_id, e.id) > (coalesce((SELECT xact_id FROM head), '0'::xid8),
                                 coalesce((SELECT entry_id FROM head), 0::bigint))
      ORDER BY e.xact_id, e.id
      LIMIT ${UNSEALED_COUNT_CAP})
    SELECT (SELECT position FROM head)::float8 AS position,
           (SELECT sealed_at FROM head)::text AS sealed_at,
           (SELECT count(*) FROM waiting)::int AS unsealed,
           extract(epoch FROM now() - (SELECT min(timestamp) FROM waiting))::float8 AS lag_seconds`);
  const row = result.rows[0];
  const anchor = readLastAnchor(anchorsFile);
  return {
    headPosition: row?.position ?? null,
    lastSealedAt: row?.sealed_at ? new Date(row.sealed_at) : null,
    unsealed: row?.unsealed ?? 0,
    lagSeconds: Math.max(0, row?.lag_seconds ?? 0),
    lastAnchorPosition: anchor?.position ?? null,
    lastAnchorAt: anchor ? new Date(anchor.at) : null,
  };
}

export function judgeSealer(sealer: SealerFigures, now: Date): CheckResult {
  if (sealer.lagSeconds > HEALTH_LIMITS.sealerProblemSeconds) return { verdict: 'PROBLEM', reason: 'sealerStopped' };
  if (sealer.lagSeconds > HEALTH_LIMITS.sealerAttentionSeconds)
    return { verdict: 'ATTENTION', reason: 'sealerLagging' };
  // The anchor job runs every minute when the head moved; a head far ahead of an old anchor means it does not.
  const anchorBehind =
    sealer.headPosition !== null &&
    (sealer.lastAnchorPosition === null || sealer.lastAnchorPosition < sealer.headPosition) &&
    (sealer.lastSealedAt?.getTime() ?? now.getTime()) < now.getTime() - HEALTH_LIMITS.sealerProblemSeconds * 1000;
  if (anchorBehind) return { verdict: 'ATTENTION', reason: 'anchorMissing' };
  return { verdict: 'OK', reason: 'ok' };
}

export interface BackupFigures {
  /** BACKUP_SCHEDULE (crontab fields, UTC), or null when scheduled backups are off. */
  schedule: string | null;
  /** The newest scheduled run: its status and when it started. */
  lastScheduledStatus: BackupStatus | null;
  lastScheduledAt: Date | null;
  /** When the newest successful backup (any trigger) finished. */
  lastSucceededAt: Date | null;
}

/** The newest scheduled backup run and the newest good one (table backup_runs, decision 037). */
export async function readBackupFigures(executor: Executor, schedule: string | null): Promise<BackupFigures> {
  const result = await executor.execute<{
    scheduled: { status: BackupStatus; at: string } | null;
    succeeded: string | null;
  }>(sql`
    SELECT (SELECT json_build_object('status', status, 'at', started_at) FROM backup_runs
             WHERE trigger = 'schedule' ORDER BY started_at DESC LIMIT 1) AS scheduled,
           (SELECT max(finished_at)::text FROM backup_runs WHERE status = 'succeeded') AS succeeded`);
  const row = result.rows[0];
  return {
    schedule,
    lastScheduledStatus: row?.scheduled?.status ?? null,
    lastScheduledAt: row?.scheduled ? new Date(row.scheduled.at) : null,
    lastSucceededAt: row?.succeeded ? new Date(row.succeeded) : null,
  };
}

/** A scheduled backup that failed or was skipped is worth attention until a backup finishes well after it. */
export function judgeBackups(backups: BackupFigures): CheckResult {
  const { lastScheduledStatus: status, lastScheduledAt: at, lastSucceededAt: good } = backups;
  if ((status === 'failed' || status === 'skipped') && !(good && at && good > at)) {
    return { verdict: 'ATTENTION', reason: status === 'failed' ? 'backupScheduledFailed' : 'backupScheduledSkipped' };
  }
  return { verdict: 'OK', reason: 'ok' };
}

export interface MailFigures {
  waiting: number;
  failed: number;
  kept: number;
  oldestWaitingAt: Date | null;
}

export function judgeMail(mail: MailFigures, options: { smtp: boolean; demoMode: boolean; now: Date }): CheckResult {
  if (!options.smtp) {
    return options.demoMode ? { verdict: 'OK', reason: 'mailKeptDemo' } : { verdict: 'PROBLEM', reason: 'mailNotSent' };
  }
  if (mail.failed > 0) return { verdict: 'ATTENTION', reason: 'mailFailed' };
  if (
    mail.oldestWaitingAt &&
    mail.oldestWaitingAt.getTime() < options.now.getTime() - HEALTH_LIMITS.mailWaitingSeconds * 1000
  ) {
    return { verdict: 'ATTENTION', reason: 'mailWaiting' };
  }
  return { verdict: 'OK', reason: 'ok' };
}

export interface DatabaseFigures {
  sizeBytes: number;
  latencyMs: number;
}

/** The database answers (timed) and its size. */
export async function readDatabaseFigures(executor: Executor): Promise<DatabaseFigures> {
  // The answer time of the smallest query (the size walks the database's files, which takes longer).
  const started = performance.now();
  await executor.execute(sql`SELECT 1`);
  const latencyMs = Math.round(performance.now() - started);
  const result = await executor.execute<{ size: string }>(
    sql`SELECT pg_database_size(current_database())::text AS size`,
  );
  return { sizeBytes: Number(result.rows[0]?.size ?? 0), latencyMs };
}

export function judgeDatabase(database: DatabaseFigures): CheckResult {
  if (database.latencyMs > HEALTH_LIMITS.databaseSlowMs) return { verdict: 'ATTENTION', reason: 'databaseSlow' };
  return { verdict: 'OK', reason: 'ok' };
}

export interface DiskFigures {
  /** The folder measured: DATA_DIR, or its nearest existing parent. */
  path: string;
  freeBytes: number;
  totalBytes: number;
}

/** Free space on the file system that holds DATA_DIR (the embedded database, anchors, recordings). */
export async function readDiskFigures(dataDir: string): Promise<DiskFigures> {
  let dir = path.resolve(dataDir);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const stats = await fs.promises.statfs(dir);
  return { path: dir, freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
}

export function judgeDisk(disk: DiskFigures): CheckResult {
  const ratio = disk.totalBytes > 0 ? disk.freeBytes / disk.totalBytes : 0;
  if (ratio < HEALTH_LIMITS.diskProblemRatio || disk.freeBytes < HEALTH_LIMITS.diskProblemBytes) {
    return { verdict: 'PROBLEM', reason: 'diskCritical' };
  }
  if (ratio < HEALTH_LIMITS.diskAttentionRatio || disk.freeBytes < HEALTH_LIMITS.diskAttentionBytes) {
    return { verdict: 'ATTENTION', reason: 'diskLow' };
  }
  return { verdict: 'OK', reason: 'ok' };
}

/** The worst verdict of the checks made. */
export function overallVerdict(results: Partial<Record<HealthCheckName, CheckResult>>): HealthVerdict {
  return HEALTH_CHECKS.reduce<HealthVerdict>(
    (worst, name) => worseVerdict(worst, results[name]?.verdict ?? 'OK'),
    'OK',
  );
}

/** A check that could not be made: attention, with the reason logged by the caller. */
export const CHECK_FAILED: CheckResult = { verdict: 'ATTENTION', reason: 'checkFailed' };
