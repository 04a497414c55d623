import { addDays, todayIn, zonedDateTime, zonedInstant, type HealthCheckName } from '@telehealth/shared';
import type { FastifyBaseLogger } from 'fastify';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { auditAnchorsPath } from '../audit/audit-anchors.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { readConsoleStats, readUndeliveredMail, type ConsoleStats } from './console-stats.repository.ts';
import {
  CHECK_FAILED,
  judgeBackups,
  judgeDatabase,
  judgeDisk,
  judgeJobQueue,
  judgeMail,
  judgeSealer,
  overallVerdict,
  readBackupFigures,
  readDatabaseFigures,
  readDiskFigures,
  readJobQueueFigures,
  readSealerFigures,
  type BackupFigures,
  type CheckResult,
  type DatabaseFigures,
  type DiskFigures,
  type JobQueueFigures,
  type MailFigures,
  type SealerFigures,
} from './system-health.ts';

type Log = Pick<FastifyBaseLogger, 'warn'>;

/** A check's verdict with its figures; null figures when the check could not be made. */
export type Checked<F> = CheckResult & { figures: F | null };

export interface SystemHealth {
  overall: CheckResult['verdict'];
  checkedAt: Date;
  database: Checked<DatabaseFigures>;
  jobs: Checked<JobQueueFigures>;
  mail: Checked<MailFigures & { smtpConfigured: boolean }>;
  auditSealer: Checked<SealerFigures>;
  backups: Checked<BackupFigures>;
  disk: Checked<DiskFigures>;
  server: Checked<{ version: string; uptimeSeconds: number; startedAt: Date; nodeVersion: string }>;
}

export interface ConsoleStatsAnswer extends ConsoleStats {
  timeZone: string;
  today: string;
  weekStart: string;
}

/**
 * The administrator console's figures and the system's health, for callers holding `system:monitor` (only
 * administrators). Computed on each call from the database, the queue and the file system; nothing is cached.
 */
export class AdminConsoleService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #log: Log;
  readonly #timeZone: () => string;

  constructor(deps: { db: Database; config: Config; log: Log; timeZone?: () => string }) {
    this.#db = deps.db;
    this.#config = deps.config;
    this.#log = deps.log;
    this.#timeZone = deps.timeZone ?? (() => deps.config.settings.current().timeZone);
  }

  async consoleStats(caller: Caller, now: Date = new Date()): Promise<ConsoleStatsAnswer> {
    await authorize(this.#db, caller, 'system:monitor');
    const zone = this.#timeZone();
    const today = todayIn(zone, now);
    // The practice's week runs Monday to Sunday.
    const weekStart = addDays(today, 1 - zonedDateTime(now, zone).weekday);
    const stats = await readConsoleStats(this.#db, {
      todayStart: zonedInstant(today, '00:00', zone),
      tomorrowStart: zonedInstant(addDays(today, 1), '00:00', zone),
      weekStart: zonedInstant(weekStart, '00:00', zone),
      nextWeekStart: zonedInstant(addDays(weekStart, 7), '00:00', zone),
    });
    return { ...stats, timeZone: zone, today, weekStart };
  }

  async systemHealth(caller: Caller): Promise<SystemHealth> {
    await authorize(this.#db, caller, 'system:monitor');
    return this.readHealth();
  }

  /** Every check, each on its own so that one failing says so and the others still answer. */
  async readHealth(now: Date = new Date()): Promise<SystemHealth> {
    const config = this.#config;
    const check = async <F>(name: HealthCheckName, read: () => Promise<F>, judge: (f: F) => CheckResult) => {
      try {
        const figures = await read();
        return { ...judge(figures), figures };
      } catch (error) {
        this.#log.warn({ err: error, check: name }, 'health check failed');
        return { ...CHECK_FAILED, figures: null };
      }
    };
    const [database, jobs, mail, auditSealer, backups, disk] = await Promise.all([
      check('database', () => readDatabaseFigures(this.#db), judgeDatabase),
      check('jobs', () => readJobQueueFigures(this.#db), judgeJobQueue),
      check(
        'mail',
        async () => ({ ...(await readUndeliveredMail(this.#db)), smtpConfigured: Boolean(config.smtpUrl) }),
        (m) => judgeMail(m, { smtp: m.smtpConfigured, demoMode: config.demoMode, now }),
      ),
      check(
        'auditSealer',
        () => readSealerFigures(this.#db, auditAnchorsPath(config.dataDir)),
        (s) => judgeSealer(s, now),
      ),
      check('backups', () => readBackupFigures(this.#db, config.backup.schedule), judgeBackups),
      check('disk', () => readDiskFigures(config.dataDir), judgeDisk),
    ]);
    const uptimeSeconds = Math.round(process.uptime());
    const server = {
      verdict: 'OK' as const,
      reason: 'ok' as const,
      figures: {
        version: config.version,
        uptimeSeconds,
        startedAt: new Date(now.getTime() - uptimeSeconds * 1000),
        nodeVersion: process.version,
      },
    };
    const results = { database, jobs, mail, auditSealer, backups, disk, server };
    return { overall: overallVerdict(results), checkedAt: now, ...results };
  }
}
