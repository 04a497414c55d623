import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import pg from 'pg';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { actorScope, scopeOf, systemScope } from '../access/scope.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import { BackupKeyError, type BackupHeader, type BackupKey } from './backup-crypto.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { BACKUP_FILE_SUFFIX, removePartialBackups, writeBackup, type BackupResult } from './write-backup.ts';
import { backupRuns } from './data.table.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';

/** What the backup key is derived for when BACKUP_ENCRYPTION_KEY is not set (decision 037). */
const DATA_KEY_PURPOSE = 'telehealth backup key v1';
/** The advisory lock held by the process writing a backup (any constant shared by every instance). */
const BACKUP_LOCK_KEY = ADVISORY_LOCKS.backup;
const BACKUP_JOB_KEY_PREFIX = 'backup:run:';
const DEAD_RUN = 'did not finish: the process writing it stopped';
const DEAD_WAITING_RUN = 'did not start: its job is gone';

interface BackupLock {
  release(): Promise<void>;
}

/** The job key of a run started from /admin/data. */
function backupJobKey(runId: string): string {
  return `${BACKUP_JOB_KEY_PREFIX}${runId}`;
}

export type BackupRun = typeof backupRuns.$inferSelect;
export type BackupTrigger = BackupRun['trigger'];

/** The key a new backup is encrypted with: BACKUP_ENCRYPTION_KEY's first entry, or one derived from the data key. */
export function backupKeyOf(config: Config, keyring: Keyring): BackupKey {
  const configured = config.backup.keys?.[0];
  if (configured) return { source: 'backup-key', id: configured.id, key: configured.key };
  const derived = keyring.deriveKey(DATA_KEY_PURPOSE)!;
  return { source: 'data-key', id: derived.keyId, key: derived.key };
}

/** The key a backup's header names, or a refusal saying which one is missing. */
export function backupKeyFor(config: Config, keyring: Keyring): (header: BackupHeader) => Buffer {
  return (header) => {
    if (header.keySource === 'backup-key') {
      const key = config.backup.keys?.find((k) => k.id === header.keyId);
      if (!key) {
        throw new BackupKeyError(
          `This backup is encrypted under BACKUP_ENCRYPTION_KEY entry "${header.keyId}", which is not configured: set BACKUP_ENCRYPTION_KEY to include it.`,
        );
      }
      return key.key;
    }
    const derived = keyring.deriveKey(DATA_KEY_PURPOSE, header.keyId);
    if (!derived) {
      throw new BackupKeyError(
        `This backup is encrypted under data key "${header.keyId}", which the keyring does not hold: set DATA_ENCRYPTION_KEY (or DATA_DIR/data-keys) to include it.`,
      );
    }
    return derived.key;
  };
}

/**
 * Backups as runs (decision 037): each one a row of backup_runs (running, then succeeded or failed; a scheduled one
 * that met another backup is skipped), written by the `backup:run` job (from /admin/data), the daily schedule or
 * `npm run backup`, each holding the backup lock while it writes; the folder keeps the newest BACKUP_KEEP files.
 */
export class BackupService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #keyring: Keyring;
  readonly #url: string;
  readonly #blobStore: BlobStore | undefined;

  constructor(deps: { db: Database; config: Config; keyring: Keyring; url: string; blobStore?: BlobStore }) {
    this.#db = deps.db;
    this.#config = deps.config;
    this.#keyring = deps.keyring;
    this.#url = deps.url;
    this.#blobStore = deps.blobStore;
  }

  /** The newest runs, newest first. */
  async list(caller: Caller, limit = 20): Promise<BackupRun[]> {
    await authorize(this.#db, caller, 'backup:manage');
    // The screen shows a dead run as failed, not as running (its button waits for a running one).
    await this.endDeadRuns();
    const rows = await this.#db
      .select()
      .from(backupRuns)
      .orderBy(desc(backupRuns.startedAt))
      .limit(Math.min(Math.max(limit, 1), 100));
    await scopeOf(this.#db, caller).audit(this.#db, 'BACKUP_HISTORY_VIEW', { count: rows.length });
    return rows;
  }

  /** "Back up now": a run and its job, in one transaction; the one already running when there is one. */
  async start(caller: Caller): Promise<BackupRun> {
    await authorize(this.#db, caller, 'backup:manage');
    return this.#db.transaction(async (tx) => {
      await this.#endDeadRuns(tx, { lockHeld: false });
      const [created] = await tx
        .insert(backupRuns)
        .values({ trigger: 'manual', requestedBy: caller.user.id })
        .onConflictDoNothing()
        .returning();
      if (!created) {
        const [running] = await tx.select().from(backupRuns).where(eq(backupRuns.status, 'running')).limit(1);
        return running!;
      }
      await addJob(tx, 'backup:run', { runId: created.id }, { jobKey: backupJobKey(created.id), maxAttempts: 1 });
      await scopeOf(this.#db, caller).audit(tx, 'BACKUP_STARTED', { backupRunId: created.id, trigger: 'manual' });
      return created;
    });
  }

  /**
   * The scheduled backup (the crontab's `backup:scheduled`): a new run; when another backup is being written, a
   * run recorded as skipped (the health screen shows it until a later backup succeeds).
   */
  async runScheduled(): Promise<BackupRun> {
    const lock = await this.#takeLock({ wait: false });
    try {
      const created = lock ? await this.#claimNewRun('schedule') : undefined;
      if (created) return await this.#write(created, SYSTEM_ACTOR);
      const [skipped] = await this.#db
        .insert(backupRuns)
        .values({
          trigger: 'schedule',
          status: 'skipped',
          finishedAt: new Date(),
          error: 'skipped: another backup was being written at the scheduled time',
        })
        .returning();
      return skipped!;
    } finally {
      await lock?.release();
    }
  }

  /** `npm run backup`: a run of its own, written now. Throws when another is running. */
  async runFromCli(): Promise<BackupRun> {
    const lock = await this.#takeLock({ wait: false });
    if (!lock) throw new Error('Another backup is running: wait for it to finish (see /admin/data).');
    try {
      const created = await this.#claimNewRun('cli');
      if (!created)
        throw new Error('A backup started from /admin/data is about to run: wait for it (see /admin/data).');
      return await this.#write(created, { ...SYSTEM_ACTOR, userId: 'cli', userRole: 'system' });
    } finally {
      await lock.release();
    }
  }

  /** The `backup:run` job: writes the backup of a run started from /admin/data, unless it was written or ended. */
  async run(runId: string, actor: AuditActor = SYSTEM_ACTOR): Promise<BackupRun> {
    // Waits only for a moment: the lock's other holders are a look for dead runs, or a process that finds this run.
    const lock = (await this.#takeLock({ wait: true }))!;
    try {
      const [claimed] = await this.#db
        .update(backupRuns)
        .set({ claimedAt: new Date() })
        .where(and(eq(backupRuns.id, runId), eq(backupRuns.status, 'running'), isNull(backupRuns.claimedAt)))
        .returning();
      if (!claimed) {
        const [run] = await this.#db.select().from(backupRuns).where(eq(backupRuns.id, runId));
        return run!;
      }
      await removePartialBackups(this.#config.backup.dir);
      return await this.#write(claimed, actor);
    } finally {
      await lock.release();
    }
  }

  /**
   * Marks failed the runs whose process died (at once: nobody holds the backup lock), and removes the `.partial`
   * files they left. Called by the server at start, by the list, and before every new run.
   */
  async endDeadRuns(): Promise<void> {
    await this.#db.transaction((tx) => this.#endDeadRuns(tx, { lockHeld: false }));
  }

  /** With the backup lock held: a new run, `running` and claimed, after ending the dead ones; none if one waits. */
  async #claimNewRun(trigger: 'schedule' | 'cli'): Promise<BackupRun | undefined> {
    await this.#endDeadRuns(this.#db, { lockHeld: true });
    await removePartialBackups(this.#config.backup.dir);
    const [created] = await this.#db
      .insert(backupRuns)
      .values({ trigger, claimedAt: new Date() })
      .onConflictDoNothing()
      .returning();
    return created;
  }

  /** Writes the backup of a claimed run, records the outcome, then keeps the newest BACKUP_KEEP files. */
  async #write(run: BackupRun, actor: AuditActor): Promise<BackupRun> {
    const runId = run.id;
    let result: BackupResult | null = null;
    let failure: string | null = null;
    try {
      result = await writeBackup({
        url: this.#url,
        dataDir: this.#config.dataDir,
        dir: this.#config.backup.dir,
        key: backupKeyOf(this.#config, this.#keyring),
        ...(this.#blobStore ? { blobs: this.#blobStore } : {}),
        onProgress: async (progress) => {
          await this.#db.update(backupRuns).set({ progress }).where(eq(backupRuns.id, runId));
        },
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const [finished] = await this.#db.transaction(async (tx) => {
      await actorScope(actor, 'backup:run').audit(
        tx,
        result ? 'BACKUP_CREATED' : 'BACKUP_FAILED',
        result
          ? {
              backupRunId: runId,
              trigger: run.trigger,
              bytes: result.bytes,
              tables: result.tables,
              rows: result.rows,
              blobs: result.blobs,
            }
          : { backupRunId: runId, trigger: run.trigger, error: failure },
        { level: result ? 'INFO' : 'ERROR' },
      );
      return tx
        .update(backupRuns)
        .set(
          result
            ? { status: 'succeeded', finishedAt: new Date(), bytes: result.bytes, location: result.file, progress: 100 }
            : { status: 'failed', finishedAt: new Date(), error: failure?.slice(0, 2000) ?? 'unknown error' },
        )
        .where(eq(backupRuns.id, runId))
        .returning();
    });
    if (result) this.#keepNewest();
    return finished!;
  }

  /** Removes the oldest backup files of the folder beyond BACKUP_KEEP (only files named as backups). */
  #keepNewest(): void {
    const dir = this.#config.backup.dir;
    const files = fs
      .readdirSync(dir)
      .filter((name) => name.startsWith('practice-') && name.endsWith(BACKUP_FILE_SUFFIX))
      .sort()
      .reverse();
    for (const name of files.slice(this.#config.backup.keep)) fs.rmSync(path.join(dir, name), { force: true });
  }

  /**
   * The backup lock (decision 037): a session-level advisory lock on a connection of its own, held by the process
   * writing a backup for the run's whole life. It dies with that process (PostgreSQL ends the session when the
   * connection drops), so a run `running` while nobody holds it is known dead at once. `wait: false` answers
   * null when another process holds it.
   */
  async #takeLock(options: { wait: boolean }): Promise<BackupLock | null> {
    const client = new pg.Client({ connectionString: this.#url, keepAlive: true });
    client.on('error', () => undefined);
    await client.connect();
    try {
      // A host that vanishes without closing its connection is noticed in about 90 s, not the system's two hours
      // (over TCP; a Unix socket needs none).
      await client.query(
        'SET tcp_keepalives_idle = 60; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3',
      );
      if (options.wait) {
        await client.query('SELECT pg_advisory_lock($1)', [BACKUP_LOCK_KEY]);
      } else {
        const taken = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
          BACKUP_LOCK_KEY,
        ]);
        if (!taken.rows[0]?.locked) {
          await client.end();
          return null;
        }
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    // Ending the session releases the lock.
    return { release: () => client.end().catch(() => undefined) };
  }

  /**
   * Marks failed, with the reason, every run whose process died: claimed and `running` while nobody holds the
   * backup lock, or waiting for a job that is gone. `lockHeld: false` tries the lock for the transaction `tx`
   * (and leaves every run alone when another process holds it, since that one is writing).
   */
  async #endDeadRuns(tx: Executor, options: { lockHeld: boolean }): Promise<void> {
    if (!options.lockHeld) {
      const free = await tx.execute<{ locked: boolean }>(
        sql`SELECT pg_try_advisory_xact_lock(${BACKUP_LOCK_KEY}) AS locked`,
      );
      if (!free.rows[0]?.locked) return;
    }
    const dead = await tx
      .update(backupRuns)
      .set({
        status: 'failed',
        finishedAt: new Date(),
        error: sql`CASE WHEN ${backupRuns.claimedAt} IS NULL THEN ${DEAD_WAITING_RUN} ELSE ${DEAD_RUN} END`,
      })
      .where(
        and(
          eq(backupRuns.status, 'running'),
          or(
            isNotNull(backupRuns.claimedAt),
            // A run from /admin/data waits for its job: dead only when the job is neither waiting nor taken.
            sql`NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j
                  WHERE j.key = ${BACKUP_JOB_KEY_PREFIX} || ${backupRuns.id}::text
                    AND (j.locked_at IS NOT NULL OR j.attempts < j.max_attempts))`,
          ),
        ),
      )
      .returning();
    if (dead.length === 0) return;
    for (const run of dead) {
      await systemScope('backup:run').audit(
        tx,
        'BACKUP_FAILED',
        { backupRunId: run.id, trigger: run.trigger, error: run.error },
        { level: 'ERROR' },
      );
    }
    // Nobody writes a backup while the lock is held: every .partial file is a dead run's.
    await removePartialBackups(this.#config.backup.dir);
  }
}
