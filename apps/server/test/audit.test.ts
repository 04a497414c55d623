import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { appendAuditEntry, verifyAuditChain } from '../src/audit/audit.repository.ts';
import { auditEntries } from '../src/db/schema.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';

const actor = { sessionId: 's1', userId: 'u1', userRole: 'provider', clientIp: '127.0.0.1', userAgent: 'test' };
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

/** Runs SQL as a superuser with triggers off, the way someone tampering with the database would. */
async function tamper(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('audit trail', () => {
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
    expect(login.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies an intact chain', async () => {
    const result = await verifyAuditChain(t.runtime.database.db);
    expect(result.ok).toBe(true);
    expect(result.entries).toBeGreaterThanOrEqual(4);
  });

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = t.runtime.database.db;
    await expect(db.execute(sql`UPDATE audit_entries SET level = 'ERROR'`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM audit_entries`)).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE audit_entries`)).rejects.toThrow();
    const cause = await db
      .execute(sql`DELETE FROM audit_entries`)
      .catch((e: unknown) => (e as { cause?: Error }).cause?.message);
    expect(cause).toMatch(/append-only/);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('detects a changed entry and names it', async () => {
    const db = t.runtime.database.db;
    const [target] = await db
      .select()
      .from(auditEntries)
      .where(sql`event = 'PATIENT_VIEW'`);
    await tamper(`UPDATE audit_entries SET details = '{"patientIds":["someone-else"]}' WHERE id = ${target!.id}`);
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: false, brokenAt: target!.id });
    await tamper(`UPDATE audit_entries SET details = '${JSON.stringify(target!.details)}' WHERE id = ${target!.id}`);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('detects a removed entry at the entry after it', async () => {
    const db = t.runtime.database.db;
    const rows = await db.select().from(auditEntries).orderBy(auditEntries.id);
    const removed = rows[1]!;
    await tamper(`DELETE FROM audit_entries WHERE id = ${removed.id}`);
    const result = await verifyAuditChain(db);
    expect(result).toMatchObject({ ok: false, brokenAt: rows[2]!.id });
    if (!result.ok) expect(result.reason).toMatch(/removed/);
  });

  it('keeps the chain across concurrent writers', async () => {
    const fresh = await createTestApp({}, { demo: false });
    const db = fresh.runtime.database.db;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        appendAuditEntry(db, { event: 'LOGIN', level: 'INFO', actor, details: { i } }),
      ),
    );
    const result = await verifyAuditChain(db);
    expect(result).toEqual({ ok: true, entries: 40 });
  });
});
