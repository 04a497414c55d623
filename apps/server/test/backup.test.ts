/**
 * Backups and audit retention (decision 037): a backup restored into an empty database has the same rows (count
 * and checksum per table) and an audit chain that verifies and keeps sealing; a wrong key, a changed file or a
 * database that is not empty is refused; backups started from /admin/data run as jobs; retention removes only
 * entries past their years, and the chain still verifies (and still catches a changed entry).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@telehealth/shared';
import { judgeJobQueue, readJobQueueFigures } from '../src/admin-console/system-health.ts';
import { anchorAuditChain } from '../src/audit/audit-anchors.ts';
import { verifyAuditTrail } from '../src/audit/audit-chain.ts';
import { appendAuditEntries, SYSTEM_ACTOR } from '../src/audit/audit.repository.ts';
import { connectDatabase, type Database } from '../src/db/client.ts';
import * as schema from '../src/practice-data/data.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { pruneExpiredAuditEntries, prunedSignatureVerifier } from '../src/practice-data/audit-retention.ts';
import { backupKeyFor, backupKeyOf } from '../src/practice-data/backup.service.ts';
import { restoreBackup } from '../src/practice-data/restore-backup.ts';
import { writeBackup } from '../src/practice-data/write-backup.ts';
import { Keyring } from '../src/keys/keyring.ts';
import {
  createTestApp,
  FOUR_BUDGETS,
  TWO_CLI_STARTS,
  createTestDatabase,
  openTestRuntime,
  TEST_DATA_KEY,
  testConfig,
  TestClient,
  type TestApp,
} from './helpers.ts';
import { sealEverything } from './audit-seal.ts';
import { TEST_BUDGET_MS } from './budget.ts';

let t: TestApp;
let admin: TestClient;

const CREATE = 'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }';

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** What a database holds beyond a new one's: tables, the migrations' and the queue's schemas, extensions, functions, types. */
async function leftIn(url: string): Promise<string[]> {
  const rows = await query<{ what: string }>(
    url,
    `SELECT 'table ' || table_schema || '.' || table_name AS what FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
     UNION ALL SELECT 'schema ' || nspname FROM pg_namespace WHERE nspname IN ('drizzle', 'graphile_worker')
     UNION ALL SELECT 'extension ' || extname FROM pg_extension WHERE extname <> 'plpgsql'
     UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
     UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace`,
  );
  return rows.map((r) => r.what);
}

/**
 * Row count and checksum of every table the backup covers. Left out: the audit tables' transaction ids, which a
 * restore renumbers (they order the chain; no checksum covers them), and the jobs' locks, which it releases (the
 * workers that held them are gone).
 */
async function tableChecksums(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'r' AND n.nspname IN ('public', 'graphile_worker') AND c.relname <> 'migrations' ORDER BY 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ n: number; sum: string | null }>(
        `SELECT count(*)::int AS n, md5(string_agg(r, E'\\n' ORDER BY r)) AS sum
         FROM (SELECT (to_jsonb(t) - 'xact_id' - 'locked_at' - 'locked_by')::text AS r FROM ${name} t) s`,
      );
      out[name] = `${rows[0]!.n}:${rows[0]!.sum ?? ''}`;
    }
    return out;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ACCOUNTS.find((a) => a.role === 'admin')!.email, DEMO_PASSWORD);
  for (let i = 0; i < 3; i++) {
    const created = await admin.gql(CREATE, {
      input: {
        firstName: `Backup${'abc'[i]}`,
        lastName: 'Person',
        email: `backup${i}@example.test`,
        dateOfBirth: '1980-01-0' + String(i + 1),
        reasonForCare: 'Encrypted reason',
      },
    });
    expect(created.errors).toBeUndefined();
  }
  await sealEverything(t.runtime.database.db);
  await anchorAuditChain(t.runtime.database.db, {
    file: path.join(t.runtime.config.dataDir, 'audit-anchors.log'),
    log: { info: () => undefined },
  });
});

describe('backup runs', () => {
  it('records a run from npm run backup, keeps the newest BACKUP_KEEP files, audits it', async () => {
    const run = await t.runtime.backups.runFromCli();
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'cli', progress: 100 });
    expect(run.bytes).toBeGreaterThan(0);
    expect(fs.existsSync(run.location!)).toBe(true);
    const [entry] = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(sql`${auditEntries.event} = 'BACKUP_CREATED'`);
    expect(entry?.details).toMatchObject({ backupRunId: run.id, trigger: 'cli' });
  });

  it('"back up now" is a job whose progress and result the list shows', async () => {
    const started = await admin.gql<{ startBackup: { id: string; status: string } }>(
      'mutation { startBackup { id status trigger } }',
    );
    expect(started.data?.startBackup.status).toBe('running');
    let status = 'running';
    for (let i = 0; i < 200 && status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const list = await admin.gql<{ backupRuns: { id: string; status: string; fileName: string | null }[] }>(
        '{ backupRuns(limit: 5) { id status fileName trigger } }',
      );
      status = list.data!.backupRuns.find((r) => r.id === started.data!.startBackup.id)!.status;
    }
    expect(status).toBe('succeeded');
  });
});

describe('a backup whose process died', () => {
  const CLI = path.resolve(import.meta.dirname, '../src/cli/backup.ts');

  /**
   * Starts `npm run backup`'s entry as a child process and kills it (SIGKILL) part-way: once it has claimed its run,
   * opened its .partial file and waits to read a table this test holds locked. Answers the dead run's id.
   */
  async function killBackupPartWay(): Promise<string> {
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    let child: ChildProcess | undefined;
    try {
      await admin.query('CREATE TABLE IF NOT EXISTS zz_backup_stall (id int)');
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE zz_backup_stall IN ACCESS EXCLUSIVE MODE');
      child = spawn(process.execPath, [CLI], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATABASE_URL: t.databaseUrl,
          DATA_DIR: tempDir('backup-child-data-'),
          BACKUP_DIR: t.runtime.config.backup.dir,
          AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
          DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let exited = false;
      let stderr = '';
      child.on('exit', () => (exited = true));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // The state to kill in: the child's snapshot waits for the locked table (a run claimed, a .partial open).
      for (;;) {
        const waiting = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'zz_backup_stall'::regclass AND NOT granted`,
        );
        if (waiting.rows[0]!.n > 0) break;
        if (exited) throw new Error(`the backup ended before it was killed: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const [run] = (
        await admin.query<{ id: string }>(`SELECT id FROM backup_runs WHERE status = 'running' AND trigger = 'cli'`)
      ).rows;
      expect(partialFiles()).toHaveLength(1);
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
      return run!.id;
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.query('DROP TABLE IF EXISTS zz_backup_stall');
      // PostgreSQL ends the dead process's sessions when it reads their closed connections: wait for that.
      for (;;) {
        const held = await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 727037`,
        );
        if (held.rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await admin.end();
    }
  }

  function partialFiles(): string[] {
    const dir = t.runtime.config.backup.dir;
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.partial')) : [];
  }

  async function runById(id: string) {
    const [run] = await t.runtime.database.db.select().from(schema.backupRuns).where(eq(schema.backupRuns.id, id));
    return run!;
  }

  it(
    'npm run backup killed part-way: the next one runs at once, the dead run is failed, its .partial removed',
    async () => {
      const dead = await killBackupPartWay();
      expect((await runById(dead)).status).toBe('running');

      const next = await t.runtime.backups.runFromCli();
      expect(next).toMatchObject({ status: 'succeeded', trigger: 'cli' });
      expect(await runById(dead)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/process writing it stopped/) as unknown,
      });
      expect(partialFiles()).toEqual([]);
    },
    TWO_CLI_STARTS.timeout,
  );

  it(
    '"back up now" after a killed backup starts a new run, which succeeds',
    async () => {
      const dead = await killBackupPartWay();
      const started = await admin.gql<{ startBackup: { id: string; status: string } }>(
        'mutation { startBackup { id status } }',
      );
      expect(started.errors).toBeUndefined();
      expect(started.data!.startBackup.id).not.toBe(dead);
      expect((await runById(dead)).status).toBe('failed');
      expect(partialFiles()).toEqual([]);
      await expect
        .poll(async () => (await runById(started.data!.startBackup.id)).status, {
          timeout: TEST_BUDGET_MS,
          interval: 100,
        })
        .toBe('succeeded');
    },
    TWO_CLI_STARTS.timeout,
  );

  it(
    'the daily backup after a killed one writes a backup',
    async () => {
      const dead = await killBackupPartWay();
      const run = await t.runtime.backups.runScheduled();
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'schedule' });
      expect((await runById(dead)).status).toBe('failed');
    },
    TWO_CLI_STARTS.timeout,
  );
});

describe('a scheduled backup that meets another', () => {
  it(
    'is recorded as skipped, and the health screen and the console say so until a backup succeeds',
    async () => {
      // Another process writing a backup: it holds the backup lock.
      const other = new pg.Client({ connectionString: t.databaseUrl });
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock(727037)');
        const skipped = await t.runtime.backups.runScheduled();
        expect(skipped).toMatchObject({ status: 'skipped', trigger: 'schedule' });
      } finally {
        await other.end();
      }
      const health = await t.runtime.adminConsole.readHealth();
      expect(health.backups).toMatchObject({ verdict: 'ATTENTION', reason: 'backupScheduledSkipped' });
      expect(health.overall).not.toBe('OK');
      const stats = await admin.gql<{ adminConsoleStats: { backup: { lastStatus: string } } }>(
        '{ adminConsoleStats { backup { lastStatus } } }',
      );
      expect(stats.data?.adminConsoleStats.backup.lastStatus).toBe('skipped');

      expect(await t.runtime.backups.runFromCli()).toMatchObject({ status: 'succeeded' });
      expect((await t.runtime.adminConsole.readHealth()).backups).toMatchObject({ verdict: 'OK', reason: 'ok' });
    },
    TWO_CLI_STARTS.timeout,
  );
});

describe('backup and restore', () => {
  let file: string;
  let before: Record<string, string>;

  it(
    'restores into an empty database with the same rows, files, and a chain that verifies and keeps sealing',
    async () => {
      // A quiet source: no job runs between the checksums and the backup.
      await t.runtime.jobs.stop();
      // One entry not sealed yet: the restored database seals it.
      await appendAuditEntries(t.runtime.database.db, [
        { event: 'SYSTEM_ERROR', level: 'ERROR', actor: SYSTEM_ACTOR, details: { test: 'unsealed at backup' } },
      ]);
      before = await tableChecksums(t.databaseUrl);
      const unsealedAtBackup = (await verifyAuditTrail(t.runtime.database.db)).unsealed.count;
      expect(unsealedAtBackup).toBeGreaterThanOrEqual(1);
      expect(Number(before['public.patients']!.split(':')[0])).toBeGreaterThanOrEqual(3);

      const dir = tempDir('backup-out-');
      const key = backupKeyOf(t.runtime.config, t.runtime.keyring);
      const result = await writeBackup({ url: t.databaseUrl, dataDir: t.runtime.config.dataDir, dir, key });
      file = result.file;
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(result.rows).toBeGreaterThan(0);
      // Encrypted: no patient name in the file.
      expect(fs.readFileSync(file).includes(Buffer.from('Backupa'))).toBe(false);

      const target = await createTestDatabase();
      const dataDir = tempDir('restore-data-');
      const restored = await restoreBackup({
        url: target,
        file,
        dataDir,
        keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
      });
      expect(restored.tables).toBe(result.tables);
      expect(await tableChecksums(target)).toEqual(before);
      // The anchors file came back, and the restored chain verifies against it.
      const anchors = fs.readFileSync(path.join(dataDir, 'audit-anchors.log'), 'utf8');
      expect(anchors).toContain('"position"');

      const db = connectDatabase(target, { max: 2 });
      try {
        const verification = await verifyAuditTrail(db.db, {
          prunedSignature: prunedSignatureVerifier(t.runtime.keyring),
        });
        expect(verification.broken).toBeNull();
        expect(verification.unsealed.stranded).toBe(0);
        expect(verification.unsealed.count).toBe(unsealedAtBackup);
        // The sealer goes on in the restored database: the entries left unsealed, and a new one.
        await appendAuditEntries(db.db, [{ event: 'LOGIN', level: 'INFO', actor: SYSTEM_ACTOR, details: {} }]);
        const sealed = await sealEverything(db.db);
        expect(sealed).toBe(unsealedAtBackup + 1);
        const after = await verifyAuditTrail(db.db);
        expect(after.ok).toBe(true);
        expect(after.unsealed.count).toBe(0);
      } finally {
        await db.close();
      }
    },
    FOUR_BUDGETS.timeout,
  );

  it(
    'a restored database whose sealer job the old server left locked after its last attempt is healthy once the sealer runs',
    async () => {
      // The old server stopped while its worker held the sealer's job at its last attempt (issue 24: the health of a
      // freshly restored database then said Attention for ever).
      const locked = await t.runtime.database.db.execute(sql`
      UPDATE graphile_worker._private_jobs j SET locked_at = now(), locked_by = 'a-stopped-worker', attempts = j.max_attempts
      FROM graphile_worker._private_tasks task WHERE task.id = j.task_id AND task.identifier = 'audit:seal'`);
      expect(locked.rowCount).toBe(1);
      const dir = tempDir('backup-out-');
      const written = await writeBackup({
        url: t.databaseUrl,
        dataDir: t.runtime.config.dataDir,
        dir,
        key: backupKeyOf(t.runtime.config, t.runtime.keyring),
      });
      const target = await createTestDatabase();
      await restoreBackup({
        url: target,
        file: written.file,
        dataDir: tempDir('restore-data-'),
        keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
      });
      const restored = await openTestRuntime(target);
      await expect
        .poll(async () => judgeJobQueue(await readJobQueueFigures(restored.database.db)).verdict, {
          timeout: TEST_BUDGET_MS,
        })
        .toBe('OK');
      const held = await restored.database.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE locked_by = 'a-stopped-worker'`,
      );
      expect(held.rows[0]!.n).toBe(0);
    },
    FOUR_BUDGETS.timeout,
  );

  it('refuses a wrong key, before touching the database', async () => {
    const target = await createTestDatabase();
    const otherKeyring = new Keyring([{ id: 'test', key: Buffer.alloc(32, 9) }]);
    await expect(
      restoreBackup({
        url: target,
        file,
        dataDir: tempDir('restore-data-'),
        keyFor: backupKeyFor(t.runtime.config, otherKeyring),
      }),
    ).rejects.toThrow(/cannot be decrypted with the configured key/);
    const other = testConfig(target, { BACKUP_ENCRYPTION_KEY: `b1:${Buffer.alloc(32, 3).toString('base64')}` });
    await expect(
      restoreBackup({
        url: target,
        file,
        dataDir: tempDir('r-'),
        keyFor: backupKeyFor(other, new Keyring([{ id: 'x', key: Buffer.alloc(32, 1) }])),
      }),
    ).rejects.toThrow(/data key "test", which the keyring does not hold/);
    const tables = await query<{ n: number }>(
      target,
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema IN ('public', 'drizzle')",
    );
    expect(tables[0]!.n).toBe(0);
  });

  it('refuses a changed file and a database that is not empty', async () => {
    const changed = path.join(tempDir('changed-'), 'changed.backup');
    const bytes = fs.readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 20) ^ 0xff, bytes.length - 20);
    fs.writeFileSync(changed, bytes);
    const target = await createTestDatabase();
    await expect(
      restoreBackup({
        url: target,
        file: changed,
        dataDir: tempDir('r-'),
        keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
      }),
    ).rejects.toThrow(/changed or damaged|cannot be decrypted/);
    // Nothing written: the whole file is checked before the migrations run.
    expect(await leftIn(target)).toEqual([]);
    await expect(
      restoreBackup({
        url: t.databaseUrl,
        file,
        dataDir: tempDir('r-'),
        keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
      }),
    ).rejects.toThrow(/not empty/);
  });

  it(
    'a cut or changed file leaves an empty database empty, with no temporary folder, and a good one then restores',
    async () => {
      const tmp = tempDir('restore-tmp-');
      const previous = process.env.TMPDIR;
      // The restore's temporary folders and files go to os.tmpdir(): one of this test's own.
      process.env.TMPDIR = tmp;
      const restoreTemps = () => fs.readdirSync(tmp).filter((name) => name.startsWith('restore-'));
      try {
        // A backup of several encrypted chunks (a file of 320 KiB that does not compress, after the tables): the
        // damage lies beyond the manifest and the rows, where only reading the whole file finds it.
        const dataDir = tempDir('big-data-');
        fs.mkdirSync(path.join(dataDir, 'recordings'));
        fs.writeFileSync(path.join(dataDir, 'recordings', 'big.bin'), randomBytes(320 * 1024));
        const key = backupKeyOf(t.runtime.config, t.runtime.keyring);
        const good = await writeBackup({ url: t.databaseUrl, dataDir, dir: tempDir('big-out-'), key });
        const target = await createTestDatabase();
        const bytes = fs.readFileSync(good.file);
        const dir = tempDir('damaged-');
        const cut = path.join(dir, 'cut.backup');
        fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
        const changed = path.join(dir, 'changed.backup');
        const flipped = Buffer.from(bytes);
        const late = Math.floor(flipped.length * 0.8);
        flipped.writeUInt8(flipped.readUInt8(late) ^ 0x01, late);
        fs.writeFileSync(changed, flipped);
        for (const damaged of [cut, changed]) {
          await expect(
            restoreBackup({
              url: target,
              file: damaged,
              dataDir: tempDir('r-'),
              keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
            }),
          ).rejects.toThrow(/changed or damaged|cannot be decrypted|incomplete|ends in the middle/i);
          expect(await leftIn(target)).toEqual([]);
          expect(restoreTemps()).toEqual([]);
        }
        const restored = await restoreBackup({
          url: target,
          file: good.file,
          dataDir: tempDir('r-'),
          keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
        });
        expect(restored).toMatchObject({ tables: good.tables, rows: good.rows, files: good.files });
        expect(restoreTemps()).toEqual([]);
      } finally {
        if (previous === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = previous;
      }
    },
    FOUR_BUDGETS.timeout,
  );

  it(
    'a restore that fails after its migrations ran drops what it created',
    async () => {
      // A version whose last migration adds a column the backup does not have: refused while inserting the rows.
      const folder = tempDir('migrations-');
      fs.cpSync(path.resolve(import.meta.dirname, '../drizzle'), folder, { recursive: true });
      const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
        entries: { tag: string }[];
      };
      const last = path.join(folder, `${journal.entries.at(-1)!.tag}.sql`);
      fs.appendFileSync(last, '\n--> statement-breakpoint\nALTER TABLE "backup_runs" ADD COLUMN "extra" integer;\n');
      const target = await createTestDatabase();
      await expect(
        restoreBackup({
          url: target,
          file,
          dataDir: tempDir('r-'),
          keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
          migrationsFolder: folder,
        }),
      ).rejects.toThrow(/backup_runs does not have the backup's columns/);
      expect(await leftIn(target)).toEqual([]);
    },
    FOUR_BUDGETS.timeout,
  );

  it('a BACKUP_ENCRYPTION_KEY backup needs that key', async () => {
    const config = testConfig(t.databaseUrl, {
      BACKUP_ENCRYPTION_KEY: `b1:${Buffer.alloc(32, 4).toString('base64')}`,
    });
    const key = backupKeyOf(config, t.runtime.keyring);
    expect(key).toMatchObject({ source: 'backup-key', id: 'b1' });
    const result = await writeBackup({ url: t.databaseUrl, dataDir: tempDir('d-'), dir: tempDir('o-'), key });
    await expect(
      restoreBackup({
        url: await createTestDatabase(),
        file: result.file,
        dataDir: tempDir('r-'),
        keyFor: backupKeyFor(t.runtime.config, t.runtime.keyring),
      }),
    ).rejects.toThrow(/BACKUP_ENCRYPTION_KEY entry "b1", which is not configured/);
  });
});

describe('audit retention', () => {
  it('removes only entries past their years; the chain still verifies, and a changed kept entry still fails', async () => {
    const db = t.runtime.database.db;
    await sealEverything(db);
    const verify = () => verifyAuditTrail(db, { prunedSignature: prunedSignatureVerifier(t.runtime.keyring) });
    expect((await verify()).broken).toBeNull();
    const counts = await db.execute<{ years: number; n: number }>(
      sql`SELECT retention_years AS years, count(*)::int AS n FROM audit_entries GROUP BY 1`,
    );
    const byYears = Object.fromEntries(counts.rows.map((r) => [r.years, r.n]));
    expect(byYears[3]).toBeGreaterThan(0);
    expect(byYears[6]).toBeGreaterThan(0);

    // Four years from now: the 3-year entries are due, the 6- and 7-year ones are not.
    const now = new Date();
    now.setUTCFullYear(now.getUTCFullYear() + 4);
    const pruned = await pruneExpiredAuditEntries(db, t.runtime.keyring, { now });
    expect(pruned).toBe(byYears[3]);
    const left = await db.execute<{ years: number; n: number }>(
      sql`SELECT retention_years AS years, count(*)::int AS n FROM audit_entries WHERE event <> 'AUDIT_ENTRIES_PRUNED' GROUP BY 1`,
    );
    expect(Object.fromEntries(left.rows.map((r) => [r.years, r.n]))[3]).toBeUndefined();
    await sealEverything(db);
    const after = await verify();
    expect(after.broken).toBeNull();
    expect(after.ok).toBe(true);

    // Entries are still append-only otherwise.
    await expect(db.execute(sql`DELETE FROM audit_entries WHERE retention_years = 6`)).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/append-only/) as unknown },
    });

    // A forged removal record (no valid signature) does not pass.
    const forged = connectDatabase(t.databaseUrl, { max: 1 });
    const client = await forged.pool.connect();
    try {
      await client.query('SET session_replication_role = replica');
      const [victim] = (
        await client.query<{ id: string; position: string }>(
          `SELECT e.id, c.position FROM audit_entries e JOIN audit_chain c ON c.entry_id = e.id
           WHERE e.retention_years = 6 ORDER BY c.position LIMIT 1`,
        )
      ).rows;
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO audit_pruned (entry_id, position, expires_at, pruned_at, key_id, signature)
         VALUES ($1, $2, now() - interval '1 day', now(), 'test', repeat('0', 64))`,
        [victim!.id, victim!.position],
      );
      await client.query('DELETE FROM audit_entries WHERE id = $1', [victim!.id]);
      const broken = await verifyAuditTrail(drizzleOf(client), {
        prunedSignature: prunedSignatureVerifier(t.runtime.keyring),
      });
      expect(broken.broken?.position).toBe(Number(victim!.position));
      expect(broken.broken?.reason).toMatch(/record of its expiry is not valid/);
      await client.query('ROLLBACK');

      // A kept entry changed: verification names it.
      await client.query(
        `UPDATE audit_entries SET details = '{"changed": true}' WHERE id = (
           SELECT e.id FROM audit_entries e JOIN audit_chain c ON c.entry_id = e.id ORDER BY c.position DESC LIMIT 1)`,
      );
    } finally {
      client.release();
      await forged.close();
    }
    const tampered = await verify();
    expect(tampered.ok).toBe(false);
    expect(tampered.broken?.reason).toMatch(/content does not match/);
  });
});

function drizzleOf(client: pg.PoolClient): Database {
  return drizzle(client);
}
