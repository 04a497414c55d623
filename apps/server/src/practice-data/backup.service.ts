import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { appendAuditEntry, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import { BackupKeyError, type BackupHeader, type BackupKey } from './backup-crypto.ts';
import { BACKUP_FILE_SUFFIX, writeBackup, type BackupResult } from './backup.ts';
import { backupRuns } from './data.schema.ts';

/** What the backup key is derived for when BACKUP_ENCRYPTION_KEY is not set (decision 037). */
const DATA_KEY_PURPOSE = 'telehealth backup key v1';
/** A run still "running" this long after it started was cut off (the server stopped while it ran). */
const STALE_RUN_HOURS = 6;

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
 * Backups as runs (decision 037): each one a row of backup_runs (running, then succeeded or failed), written by the
 * `backup:run` job (from /admin/data or the daily schedule) or by `npm run backup`; the folder keeps the newest
 * BACKUP_KEEP files.
 */
export class BackupService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #keyring: Keyring;
  readonly #url: string;

  constructor(deps: { db: Database; config: Config; keyring: Keyring; url: string }) {
    this.#db = deps.db;
    this.#config = deps.config;
    this.#keyring = deps.keyring;
    this.#url = deps.url;
  }

  /** The newest runs, newest first. */
  async list(caller: Caller, limit = 20): Promise<BackupRun[]> {
    await authorize(this.#db, caller, 'backup:manage');
    const rows = await this.#db
      .select()
      .from(backupRuns)
      .orderBy(desc(backupRuns.startedAt))
      .limit(Math.min(Math.max(limit, 1), 100));
    await appendAuditEntry(this.#db, {
      event: 'BACKUP_HISTORY_VIEW',
      level: 'INFO',
      actor: caller.actor,
      url: caller.operation,
      details: { count: rows.length },
    });
    return rows;
  }

  /** "Back up now": a run and its job, in one transaction; the one already running when there is one. */
  async start(caller: Caller): Promise<BackupRun> {
    await authorize(this.#db, caller, 'backup:manage');
    await this.#endStaleRuns();
    return this.#db.transaction(async (tx) => {
      const [created] = await tx
        .insert(backupRuns)
        .values({ trigger: 'manual', requestedBy: caller.user.id })
        .onConflictDoNothing()
        .returning();
      if (!created) {
        const [running] = await tx.select().from(backupRuns).where(eq(backupRuns.status, 'running')).limit(1);
        return running!;
      }
      await addJob(tx, 'backup:run', { runId: created.id }, { jobKey: `backup:run:${created.id}`, maxAttempts: 1 });
      await appendAuditEntry(tx, {
        event: 'BACKUP_STARTED',
        level: 'INFO',
        actor: caller.actor,
        url: caller.operation,
        details: { backupRunId: created.id, trigger: 'manual' },
      });
      return created;
    });
  }

  /** The scheduled backup (the crontab's `backup:scheduled`): a new run, unless one is running. */
  async runScheduled(): Promise<BackupRun | null> {
    await this.#endStaleRuns();
    const [created] = await this.#db
      .insert(backupRuns)
      .values({ trigger: 'schedule' })
      .onConflictDoNothing()
      .returning();
    if (!created) return null;
    return this.run(created.id, SYSTEM_ACTOR);
  }

  /** `npm run backup`: a run of its own, written now. Throws when another is running. */
  async runFromCli(): Promise<BackupRun> {
    await this.#endStaleRuns();
    const [created] = await this.#db.insert(backupRuns).values({ trigger: 'cli' }).onConflictDoNothing().returning();
    if (!created) throw new Error('Another backup is running: wait for it to finish (see /admin/data).');
    return this.run(created.id, { ...SYSTEM_ACTOR, userId: 'cli', userRole: 'system' });
  }

  /** Writes the backup of a run that is `running`, records the outcome, then keeps the newest BACKUP_KEEP files. */
  async run(runId: string, actor: AuditActor = SYSTEM_ACTOR): Promise<BackupRun> {
    const [run] = await this.#db.select().from(backupRuns).where(eq(backupRuns.id, runId));
    if (!run || run.status !== 'running') return run!;
    let result: BackupResult | null = null;
    let failure: string | null = null;
    try {
      result = await writeBackup({
        url: this.#url,
        dataDir: this.#config.dataDir,
        dir: this.#config.backup.dir,
        key: backupKeyOf(this.#config, this.#keyring),
        onProgress: async (progress) => {
          await this.#db.update(backupRuns).set({ progress }).where(eq(backupRuns.id, runId));
        },
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const [finished] = await this.#db.transaction(async (tx) => {
      await appendAuditEntry(tx, {
        event: result ? 'BACKUP_CREATED' : 'BACKUP_FAILED',
        level: result ? 'INFO' : 'ERROR',
        actor,
        url: 'backup:run',
        details: result
          ? { backupRunId: runId, trigger: run.trigger, bytes: result.bytes, tables: result.tables, rows: result.rows }
          : { backupRunId: runId, trigger: run.trigger, error: failure },
      });
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

  /** A run left "running" by a server that stopped would block every later one. */
  async #endStaleRuns(): Promise<void> {
    await this.#db
      .update(backupRuns)
      .set({
        status: 'failed',
        finishedAt: new Date(),
        error: 'did not finish: the server stopped while it ran',
      })
      .where(
        and(
          eq(backupRuns.status, 'running'),
          lt(backupRuns.startedAt, sql`now() - make_interval(hours => ${STALE_RUN_HOURS})`),
        ),
      );
  }
}
