import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { parseCrontab } from 'graphile-worker';
import { anchorAuditChain, auditAnchorsPath, readAuditAnchors } from '../src/audit/audit-anchors.ts';
import { computeChecksum, sealAuditChain, verifyAuditTrail, type AuditAnchor } from '../src/audit/audit-chain.ts';
import { appendAuditEntry, type AuditRecord } from '../src/audit/audit.repository.ts';
import { connectDatabase, migrateDatabase, type Database } from '../src/db/client.ts';
import { auditChain, auditEntries } from '../src/audit/audit.table.ts';
import { addJob } from '../src/jobs/add-job.ts';
import { AUDIT_SEAL_JOB_KEY } from '../src/audit/audit.module.ts';
import { crontab } from '../src/modules/registry.ts';
import {
  createTestApp,
  createTestDatabase,
  runNode,
  sleep,
  TEST_DATA_KEY,
  TestClient,
  type TestApp,
  TWO_CLI_STARTS,
} from './helpers.ts';
import { afterFile } from './file-cleanup.ts';
import { sealEverything, untilSealed } from './audit-seal.ts';

const actor = { sessionId: 's1', userId: 'u1', userRole: 'provider', clientIp: '127.0.0.1', userAgent: 'test' };
const record = (details: Record<string, unknown> = {}): AuditRecord => ({
  event: 'LOGIN',
  level: 'INFO',
  actor,
  details,
});

/** A migrated database of its own, without the app: for the tests that tamper with the chain. */
async function freshDatabase(): Promise<{ url: string; db: Database }> {
  const url = await createTestDatabase({ migrated: true });
  const handle = connectDatabase(url);
  afterFile(() => handle.close());
  return { url, db: handle.db };
}

/** Runs SQL as a superuser with triggers off, the way someone tampering with the database would. */
async function tamper(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function chainOrder(db: Database) {
  return db
    .select({ position: auditChain.position, entryId: auditChain.entryId, xactId: auditEntries.xactId })
    .from(auditChain)
    .innerJoin(auditEntries, eq(auditEntries.id, auditChain.entryId))
    .orderBy(asc(auditChain.position));
}

/** A connection with an open transaction, for interleavings that a pool would not show. */
async function openTransaction(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  const db = drizzle(client);
  return {
    append: async (details: Record<string, unknown>) => {
      await appendAuditEntry(db, record(details));
      const [row] = await db
        .select({ id: auditEntries.id })
        .from(auditEntries)
        .where(sql`${auditEntries.details}->>'name' = ${String(details.name)}`);
      return row!.id;
    },
    commit: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

interface Statement {
  text: string;
  /** The connection that sent it. */
  client: unknown;
}

/**
 * Runs `work` while noting every statement pg clients send (the database still runs them all), the server's
 * background jobs' included.
 */
async function watchingStatements<T>(statements: Statement[], work: () => Promise<T>): Promise<T> {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  try {
    return await work();
  } finally {
    (spy.mock.calls as unknown[][]).forEach(([first], i) => {
      const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '');
      statements.push({ text, client: spy.mock.contexts[i] });
    });
    spy.mockRestore();
  }
}

describe('audit entries', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const client = new TestClient(t.app);
    await client.signIn('provider@demo.test', DEMO_PASSWORD);
    await client.signIn('provider@demo.test', 'Wrong-Password-1');
    await appendAuditEntry(t.runtime.database.db, {
      event: 'PATIENT_VIEW',
      level: 'INFO',
      actor,
      details: {
        patientIds: ['p1'],
        password: 'hunter2',
        nested: { accessToken: 'abc', ssn: '123-45-6789', kept: 'yes' },
      },
    });
    await client.signIn('admin@demo.test', DEMO_PASSWORD);
  });

  it('stores the specification fields, classification and retention', async () => {
    const rows = await t.runtime.database.db.select().from(auditEntries).orderBy(auditEntries.id);
    const view = rows.find((r) => r.event === 'PATIENT_VIEW')!;
    expect(view).toMatchObject({
      hipaaRequired: true,
      retentionYears: 6,
      level: 'INFO',
      userId: 'u1',
      userRole: 'provider',
      sessionId: 's1',
    });
    expect(view.details).toEqual({ patientIds: ['p1'], nested: { kept: 'yes' } });
    const failed = rows.find((r) => r.event === 'FAILED_LOGIN')!;
    expect(failed).toMatchObject({ hipaaRequired: false, retentionYears: 7, level: 'WARNING', userRole: 'provider' });
    const login = rows.find((r) => r.event === 'LOGIN')!;
    expect(login).toMatchObject({ hipaaRequired: false, retentionYears: 3 });
    expect(rows.find((r) => r.event === 'ADMIN_LOGIN')?.retentionYears).toBe(7);
  });

  it('seals every entry into a chain that verifies', async () => {
    const db = t.runtime.database.db;
    await sealEverything(db);
    const result = await verifyAuditTrail(db);
    expect(result).toMatchObject({ ok: true, broken: null, unsealed: { count: 0, stranded: 0 } });
    const entries = await db.select({ id: auditEntries.id }).from(auditEntries);
    expect(result.positions).toBe(entries.length);
    expect(result.head?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stamps each entry with the transaction that inserted it, whatever the inserter says', async () => {
    const db = t.runtime.database.db;
    const stamped = await db.transaction(async (tx) => {
      await tx.insert(auditEntries).values({
        timestamp: new Date(),
        event: 'LOGIN',
        level: 'INFO',
        userId: 'u1',
        userRole: 'provider',
        details: { name: 'forged-xact' },
        hipaaRequired: false,
        retentionYears: 3,
        xactId: '3',
      });
      const [row] = await tx
        .execute<{ same: boolean }>(
          sql`SELECT xact_id = pg_current_xact_id() AS same FROM audit_entries WHERE details->>'name' = 'forged-xact'`,
        )
        .then((r) => r.rows);
      return row?.same;
    });
    expect(stamped).toBe(true);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on the entries and on the chain', async () => {
    const db = t.runtime.database.db;
    await sealEverything(db);
    for (const table of ['audit_entries', 'audit_chain']) {
      const column = table === 'audit_entries' ? 'level' : 'checksum';
      await expect(db.execute(sql.raw(`UPDATE ${table} SET ${column} = ${column}`))).rejects.toThrow();
      await expect(db.execute(sql.raw(`DELETE FROM ${table}`))).rejects.toThrow();
      await expect(db.execute(sql.raw(`TRUNCATE ${table}`))).rejects.toThrow();
      const cause = await db
        .execute(sql.raw(`DELETE FROM ${table}`))
        .catch((e: unknown) => (e as { cause?: Error }).cause?.message);
      expect(cause).toBe(`${table} is append-only: DELETE is not allowed`);
    }
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });

  it('lets audited transactions write without waiting for each other', async () => {
    const open = await openTransaction(t.databaseUrl);
    await open.append({ name: 'held-open' });
    // With a lock shared by audited transactions, this would wait for the open one to end.
    await appendAuditEntry(t.runtime.database.db, record({ name: 'not-waiting' }));
    await open.commit();
    await sealEverything(t.runtime.database.db);
    const order = await chainOrder(t.runtime.database.db);
    const names = await t.runtime.database.db
      .select({ id: auditEntries.id, name: sql<string>`${auditEntries.details}->>'name'` })
      .from(auditEntries);
    const positionOf = (name: string) =>
      order.findIndex((link) => link.entryId === names.find((n) => n.name === name)!.id);
    // The open transaction began first: its entry comes first although it committed last.
    expect(positionOf('held-open')).toBeLessThan(positionOf('not-waiting'));
  });

  it('writes a read and its audit entry in one statement, without BEGIN and COMMIT', async () => {
    const admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    const created = await admin.gql<{ createPatient: { id: string } }>(
      'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }',
      { i: { firstName: 'Una', lastName: 'Statement', email: 'una@example.net', dateOfBirth: '1990-02-03' } },
    );
    const id = created.data!.createPatient.id;
    const statements: Statement[] = [];
    const [list, get] = await watchingStatements(statements, async () => [
      await admin.gql<{ listPatients: { items: { id: string }[] } }>(
        'query { listPatients(limit: 1, filter: { search: "una@example" }) { items { id } nextToken } }',
      ),
      await admin.gql<{ getPatient: { id: string } }>('query($id: ID!) { getPatient(id: $id) { id } }', { id }),
    ]);
    expect(list.data).toEqual({ listPatients: { items: [{ id }], nextToken: null } });
    expect(get.data).toEqual({ getPatient: { id } });
    const reads = statements.filter((s) => s.text.includes('"patients"'));
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      expect(read.text).toMatch(/insert into "audit_entries"/i);
      // Not inside a transaction: the statement before it on its connection is no BEGIN.
      const onItsConnection = statements.filter((s) => s.client === read.client);
      const before = onItsConnection[onItsConnection.indexOf(read) - 1];
      expect(before?.text ?? '').not.toMatch(/^\s*begin/i);
    }

    const views = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(sql`${auditEntries.event} = 'PATIENT_VIEW' AND ${auditEntries.details}->'patientIds' ? ${id}`)
      .orderBy(auditEntries.id);
    expect(views.map((v) => v.details)).toEqual([{ patientIds: [id], page: 'first', count: 1 }, { patientIds: [id] }]);
  });

  it('records no view for a patient outside the scope, only the attempt', async () => {
    const admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    const created = await admin.gql<{ createPatient: { id: string } }>(
      'mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }',
      { i: { firstName: 'Out', lastName: 'Ofscope', email: 'out.of@example.net', dateOfBirth: '1990-02-03' } },
    );
    const id = created.data!.createPatient.id;
    const provider = new TestClient(t.app);
    await provider.signIn('provider2@demo.test', DEMO_PASSWORD);
    const get = await provider.gql('query($id: ID!) { getPatient(id: $id) { id } }', { id });
    expect(get.errors?.[0]?.message).toBe('Patient not found');
    const entries = await t.runtime.database.db
      .select({ event: auditEntries.event })
      .from(auditEntries)
      .where(sql`${auditEntries.details}->'patientIds' ? ${id}`)
      .orderBy(auditEntries.id);
    expect(entries.map((e) => e.event)).toEqual(['PATIENT_CREATE', 'UNAUTHORIZED_ACCESS']);
  });
});

describe('the sealer', () => {
  it('seals 60 concurrent audited writes, in order, while sealing runs beside them', async () => {
    const t = await createTestApp();
    const db = t.runtime.database.db;
    const admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    let writing = true;
    const sealer = (async () => {
      while (writing) {
        await sealAuditChain(db, { batchSize: 7 });
        await sleep(2);
      }
    })();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        admin.gql('mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', {
          i: { firstName: 'Con', lastName: 'Current', email: `con.${i}@example.net`, dateOfBirth: '1980-01-01' },
        }),
      ),
    );
    writing = false;
    await sealer;
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    await sealEverything(db);

    const order = await chainOrder(db);
    const entries = await db.select({ id: auditEntries.id, event: auditEntries.event }).from(auditEntries);
    expect(entries.filter((e) => e.event === 'PATIENT_CREATE')).toHaveLength(60);
    expect(order.map((l) => l.position)).toEqual(entries.map((_, i) => i + 1));
    expect(new Set(order.map((l) => l.entryId))).toEqual(new Set(entries.map((e) => e.id)));
    const sorted = [...order].sort((a, b) =>
      BigInt(a.xactId) === BigInt(b.xactId) ? a.entryId - b.entryId : BigInt(a.xactId) < BigInt(b.xactId) ? -1 : 1,
    );
    expect(order).toEqual(sorted);
    expect(await verifyAuditTrail(db)).toMatchObject({ ok: true, positions: entries.length });
  });

  it('seals an entry that committed late after the entries sealed while it was open', async () => {
    const { url, db } = await freshDatabase();
    const first = await openTransaction(url);
    const firstId = await first.append({ name: 'first' });
    const late = await openTransaction(url);
    const lateId = await late.append({ name: 'late' });
    const after = await openTransaction(url);
    const afterId = await after.append({ name: 'after' });
    await after.commit();
    await first.commit();

    // "first" began before "late": sealed now. "after" committed already but began after "late", which is
    // still open: it waits, or "late" could no longer take its place before it.
    const sealed = async () => (await chainOrder(db)).map((l) => l.entryId);
    for (let attempt = 0; attempt < 400 && (await sealed()).length === 0; attempt++) {
      await sealAuditChain(db);
      await sleep(25);
    }
    await sealAuditChain(db);
    expect(await sealed()).toEqual([firstId]);

    await late.commit();
    await sealEverything(db);
    expect(await sealed()).toEqual([firstId, lateId, afterId]);
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });

  it('lets one sealer work at a time and never forks the chain', async () => {
    const { url, db } = await freshDatabase();
    // A sealer at work elsewhere (another instance): this one steps aside.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock(727003)');
    await appendAuditEntry(db, record({ name: 'while-busy' }));
    expect(await sealAuditChain(db)).toMatchObject({ sealed: 0, busy: true });
    await other.query('COMMIT');
    await other.end();

    let writing = true;
    const writers = Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 12; i++) await appendAuditEntry(db, record({ name: `w${w}-${i}` }));
      }),
    ).finally(() => {
      writing = false;
    });
    const sealers = Array.from({ length: 4 }, async (_, s) => {
      while (writing) {
        await sealAuditChain(db, { batchSize: 5, wait: s % 2 === 0 });
        await sleep(1);
      }
    });
    await Promise.all([writers, ...sealers]);
    await sealEverything(db);

    const order = await chainOrder(db);
    expect(order).toHaveLength(97);
    expect(order.map((l) => l.position)).toEqual(order.map((_, i) => i + 1));
    expect(new Set(order.map((l) => l.entryId)).size).toBe(97);
    expect((await verifyAuditTrail(db)).ok).toBe(true);
  });
});

describe('the sealer and the anchors as jobs', () => {
  it('seals committed entries by itself, without anyone asking', async () => {
    const t = await createTestApp({}, { demo: false });
    const db = t.runtime.database.db;
    await Promise.all(Array.from({ length: 5 }, (_, i) => appendAuditEntry(db, record({ name: `job-${i}` }))));
    // No sealAuditChain here: the runtime's queue runs the sealer, which keeps rescheduling itself.
    await untilSealed(db);
    expect(await verifyAuditTrail(db)).toMatchObject({ ok: true, positions: 5 });
    const pending = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${AUDIT_SEAL_JOB_KEY}`,
    );
    expect(pending.rows[0]?.n).toBe(1);
  });

  it('anchors the head in DATA_DIR through the queue', async () => {
    const t = await createTestApp({}, { demo: false });
    const db = t.runtime.database.db;
    await appendAuditEntry(db, record({ name: 'anchored' }));
    await untilSealed(db);
    await addJob(db, 'audit:anchor', {});
    await t.runtime.jobs.drain();
    const file = auditAnchorsPath(t.runtime.config.dataDir);
    const head = await verifyAuditTrail(db);
    expect(readAuditAnchors(file)?.anchors).toEqual([
      { position: 1, checksum: head.head!.checksum, at: expect.any(String) as string },
    ]);
  });

  it('runs the anchors every minute and restarts the sealer every minute if it stopped', () => {
    const items = new Map(parseCrontab(crontab).map((item) => [item.identifier, item]));
    expect(items.get('audit-anchor')).toMatchObject({ task: 'audit:anchor' });
    expect(items.get('audit-seal')).toMatchObject({
      task: 'audit:seal',
      options: { jobKey: AUDIT_SEAL_JOB_KEY, jobKeyMode: 'preserve_run_at' },
    });
    for (const id of ['audit-anchor', 'audit-seal']) {
      for (let minute = 0; minute < 60; minute++) {
        expect(items.get(id)!.match({ min: minute, hour: 3, date: 14, month: 5, dow: 2 })).toBe(true);
      }
    }
  });
});

describe('verification', () => {
  let url: string;
  let db: Database;
  let anchorsFile: string;
  const log = { lines: [] as unknown[], info: (obj: object) => log.lines.push(obj) };

  beforeAll(async () => {
    ({ url, db } = await freshDatabase());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-anchors-'));
    afterFile(() => fs.rmSync(dir, { recursive: true, force: true }));
    anchorsFile = path.join(dir, 'audit-anchors.log');
  });

  const anchors = (): AuditAnchor[] => readAuditAnchors(anchorsFile)?.anchors ?? [];
  const links = () => db.select().from(auditChain).orderBy(asc(auditChain.position));

  it('anchors the head outside the database once per head', async () => {
    for (let i = 0; i < 10; i++) await appendAuditEntry(db, record({ name: `e${i}` }));
    await sealEverything(db);
    const anchor = await anchorAuditChain(db, { file: anchorsFile, log });
    expect(anchor).toMatchObject({ position: 10 });
    expect(await anchorAuditChain(db, { file: anchorsFile, log })).toBeNull();
    expect(anchors()).toEqual([anchor]);
    expect(log.lines).toEqual([{ auditAnchor: anchor }]);
    expect(fs.statSync(anchorsFile).mode & 0o777).toBe(0o600);

    for (let i = 10; i < 14; i++) await appendAuditEntry(db, record({ name: `e${i}` }));
    await sealEverything(db);
    await anchorAuditChain(db, { file: anchorsFile, log });
    expect(anchors().map((a) => a.position)).toEqual([10, 14]);
    expect(await verifyAuditTrail(db, { anchors: anchors() })).toMatchObject({
      ok: true,
      positions: 14,
      anchors: { checked: 2, problems: [] },
    });
  });

  it('names a changed entry', async () => {
    const [, , target] = await links();
    const [entry] = await db.select().from(auditEntries).where(eq(auditEntries.id, target!.entryId));
    await tamper(url, `UPDATE audit_entries SET user_id = 'someone-else' WHERE id = ${entry!.id}`);
    const result = await verifyAuditTrail(db, { anchors: anchors() });
    expect(result).toMatchObject({ ok: false, broken: { position: 3, entryId: entry!.id } });
    expect(result.broken?.reason).toMatch(/changed/);
    await tamper(url, `UPDATE audit_entries SET user_id = '${entry!.userId}' WHERE id = ${entry!.id}`);
    expect((await verifyAuditTrail(db, { anchors: anchors() })).ok).toBe(true);
  });

  it('detects a chain rewritten after a change through the anchors', async () => {
    // A thorough forger changes an entry and recomputes every checksum after it: the chain holds by itself,
    // but no longer has the checksum anchored before.
    const before = await links();
    const entries = await db.select().from(auditEntries).orderBy(asc(auditEntries.id));
    await tamper(url, `UPDATE audit_entries SET user_id = 'forged' WHERE id = ${before[4]!.entryId}`);
    const rechain = async (change: (id: number) => Partial<(typeof entries)[number]>) => {
      let prev = before[3]!.checksum;
      for (const link of before.slice(4)) {
        const { id: _id, xactId: _x, ...content } = entries.find((e) => e.id === link.entryId)!;
        const checksum = computeChecksum({ ...content, ...change(link.entryId) }, prev);
        await tamper(
          url,
          `UPDATE audit_chain SET prev_checksum = '${prev}', checksum = '${checksum}' WHERE position = ${link.position}`,
        );
        prev = checksum;
      }
    };
    await rechain((id) => (id === before[4]!.entryId ? { userId: 'forged' } : {}));
    const result = await verifyAuditTrail(db, { anchors: anchors() });
    expect(result.broken).toBeNull();
    expect(result.ok).toBe(false);
    expect(result.anchors.problems.map((p) => p.anchor.position)).toEqual([10, 14]);
    expect(result.anchors.problems[0]?.reason).toMatch(/changed/);

    await tamper(url, `UPDATE audit_entries SET user_id = 'u1' WHERE id = ${before[4]!.entryId}`);
    await rechain(() => ({}));
    expect((await verifyAuditTrail(db, { anchors: anchors() })).ok).toBe(true);
  });

  it('detects the newest entries removed through the anchors', async () => {
    const before = await links();
    const removed = before.slice(-3);
    const ids = removed.map((l) => l.entryId).join(',');
    await tamper(
      url,
      `DELETE FROM audit_chain WHERE entry_id IN (${ids}); DELETE FROM audit_entries WHERE id IN (${ids})`,
    );
    const alone = await verifyAuditTrail(db);
    // By itself, the shorter chain still verifies: only the anchor knows it was longer.
    expect(alone).toMatchObject({ ok: true, positions: 11 });
    const result = await verifyAuditTrail(db, { anchors: anchors() });
    expect(result).toMatchObject({ ok: false, broken: null, positions: 11 });
    expect(result.anchors.problems).toHaveLength(1);
    expect(result.anchors.problems[0]).toMatchObject({ anchor: { position: 14 } });
    expect(result.anchors.problems[0]?.reason).toMatch(
      /beyond the chain's head \(11\): the newest entries were removed/,
    );
  });

  it('names a removed entry, and a removed position', async () => {
    const before = await links();
    await tamper(url, `DELETE FROM audit_entries WHERE id = ${before[1]!.entryId}`);
    let result = await verifyAuditTrail(db);
    expect(result).toMatchObject({ ok: false, broken: { position: 2, entryId: before[1]!.entryId } });
    expect(result.broken?.reason).toMatch(/removed/);

    await tamper(url, `DELETE FROM audit_chain WHERE position = 2`);
    result = await verifyAuditTrail(db);
    expect(result).toMatchObject({ ok: false, broken: { position: 2, entryId: null } });
    expect(result.broken?.reason).toMatch(/position 2 is missing/);
  });

  it('reports entries inserted behind the head, which no sealer would reach', async () => {
    const [first] = await links();
    await tamper(
      url,
      `INSERT INTO audit_entries (timestamp, event, level, user_id, user_role, details, hipaa_required, retention_years, xact_id)
       VALUES (now(), 'LOGIN', 'INFO', 'u1', 'provider', '{}', false, 3, '${first!.xactId}')`,
    );
    const result = await verifyAuditTrail(db);
    expect(result.unsealed).toMatchObject({ count: 1, stranded: 1 });
  });
});

describe('npm run audit:verify', () => {
  const SCRIPT = path.resolve(import.meta.dirname, '../src/cli/audit-verify.ts');

  const runVerify = (env: Record<string, string>, args: string[] = []) =>
    runNode(
      SCRIPT,
      {
        AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
        DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
        LOG_LEVEL: 'silent',
        ...env,
      },
      args,
    );

  function tempDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-verify-'));
    afterFile(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  // Each start of the command opens the whole runtime; under load one takes many seconds, so each test below starts
  // it at most twice (one test starting it five times outlived its budget beside the browser tests), and a test that
  // starts it twice gets TWO_CLI_STARTS.
  it('says a missing anchors file is only a note before the chain was ever anchored (issue 24)', async () => {
    const { url, db } = await freshDatabase();
    const wrongDir = tempDir();
    for (let i = 0; i < 3; i++) await appendAuditEntry(db, record({ name: `v${i}` }));
    await sealEverything(db);
    const fresh = await runVerify({ DATABASE_URL: url, DATA_DIR: wrongDir });
    expect(fresh.code, fresh.output).toBe(0);
    expect(fresh.output).toContain(`No anchors file at ${auditAnchorsPath(wrongDir)}`);
  });

  /** A sealed chain anchored in the server's DATA_DIR, and another DATA_DIR without the file. */
  async function anchoredChain() {
    const { url, db } = await freshDatabase();
    const serverDir = tempDir();
    const wrongDir = tempDir();
    for (let i = 0; i < 3; i++) await appendAuditEntry(db, record({ name: `v${i}` }));
    await sealEverything(db);
    const serverFile = auditAnchorsPath(serverDir);
    await anchorAuditChain(db, { file: serverFile, log: { info: () => undefined } });
    return { url, serverDir, wrongDir, serverFile };
  }

  it(
    'fails when the database shows the chain was anchored and the anchors file is missing (issue 24)',
    TWO_CLI_STARTS,
    async () => {
      const { url, serverDir, wrongDir, serverFile } = await anchoredChain();
      // Run with another DATA_DIR: it says where it looked and where the server anchored, and exits 1.
      const missing = await runVerify({ DATABASE_URL: url, DATA_DIR: wrongDir });
      expect(missing.code, missing.output).toBe(1);
      expect(missing.output).toContain(`No anchors file at ${auditAnchorsPath(wrongDir)}`);
      expect(missing.output).toContain(serverFile);
      expect(missing.output).not.toContain('Audit trail verified');
      // A named copy that is not there fails the same way.
      const named = await runVerify({ DATABASE_URL: url, DATA_DIR: serverDir }, [
        '--anchors',
        path.join(wrongDir, 'x'),
      ]);
      expect(named.code, named.output).toBe(1);
    },
  );

  it(
    "verifies an anchored chain without its anchors only when told, and in full with the server's DATA_DIR",
    TWO_CLI_STARTS,
    async () => {
      const { url, serverDir, wrongDir } = await anchoredChain();
      // --without-anchors says that it checks less, and then verifies the chain alone.
      const without = await runVerify({ DATABASE_URL: url, DATA_DIR: wrongDir }, ['--without-anchors']);
      expect(without.code, without.output).toBe(0);
      expect(without.output).toContain('Anchors NOT checked (--without-anchors)');
      expect(without.output).toContain('Audit trail verified without its anchors');
      // With the server's DATA_DIR it verifies in full.
      const right = await runVerify({ DATABASE_URL: url, DATA_DIR: serverDir });
      expect(right.code, right.output).toBe(0);
      expect(right.output).toContain('Audit trail verified.');
    },
  );
});

describe('migration 0004', () => {
  it('keeps the entries chained before it, as the first positions', async () => {
    const url = await createTestDatabase();
    const folder = path.resolve(import.meta.dirname, '../drizzle');
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-0003-'));
    afterFile(() => fs.rmSync(before, { recursive: true, force: true }));
    fs.mkdirSync(path.join(before, 'meta'));
    const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const upTo = journal.entries.findIndex((e) => e.tag.startsWith('0004'));
    for (const entry of journal.entries.slice(0, upTo)) {
      fs.copyFileSync(path.join(folder, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));
    }
    fs.writeFileSync(
      path.join(before, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }),
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(drizzle(client), { migrationsFolder: before });

    // Entries chained the way the code before 0004 did: in id order, under a lock.
    let prev = '0'.repeat(64);
    for (let i = 0; i < 5; i++) {
      const content = {
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 123)),
        sessionId: null,
        event: 'LOGIN',
        level: 'INFO',
        userId: `legacy-${i}`,
        userRole: 'admin',
        clientIp: '10.0.0.1',
        userAgent: null,
        url: null,
        referrer: null,
        details: { email: `legacy${i}@example.net`, n: i },
        hipaaRequired: false,
        retentionYears: 3,
      };
      const checksum = computeChecksum(content, prev);
      await client.query(
        `INSERT INTO audit_entries (timestamp, session_id, event, level, user_id, user_role, client_ip, user_agent, url,
           referrer, details, hipaa_required, retention_years, prev_checksum, checksum)
         VALUES ($1, null, 'LOGIN', 'INFO', $2, 'admin', '10.0.0.1', null, null, null, $3, false, 3, $4, $5)`,
        [content.timestamp, content.userId, JSON.stringify(content.details), prev, checksum],
      );
      prev = checksum;
    }
    await client.end();

    await migrateDatabase(url);
    const handle = connectDatabase(url);
    try {
      const db = handle.db;
      const kept = await verifyAuditTrail(db);
      expect(kept).toMatchObject({ ok: true, positions: 5, unsealed: { count: 0 } });
      expect(kept.head?.checksum).toBe(prev);
      await appendAuditEntry(db, record({ name: 'after-0004' }));
      await sealEverything(db);
      const order = await chainOrder(db);
      expect(order.map((l) => l.position)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await verifyAuditTrail(db)).toMatchObject({ ok: true, positions: 6 });
    } finally {
      await handle.close();
    }
  });
});
