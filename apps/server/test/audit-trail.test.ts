import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_BATCH_MAX_ENTRIES,
  AUDIT_INTAKE_RATE,
  AUDIT_MESSAGES,
  DEMO_PASSWORD,
  MESSAGES,
  type Role,
} from '@telehealth/shared';
import { appendAuditEntries, SYSTEM_ACTOR } from '../src/audit/audit.repository.ts';
import { generateApiTokenSecret, insertApiToken } from '../src/audit-trail/api-tokens.repository.ts';
import { apiTokens } from '../src/audit-trail/audit-trail.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';
import { sealEverything } from './audit-seal.ts';

let t: TestApp;
const clients = new Map<Role | 'signed-out', TestClient>();
const userIds = new Map<Role, string>();
const db = () => t.runtime.database.db;

const SEARCH =
  'query ($filter: AuditSearchFilter, $first: Int, $after: String) { auditEntries(filter: $filter, first: $first, after: $after) { entries { id event level source userId details timestamp } nextCursor } }';
const ENTRY = 'query ($id: ID!) { auditEntry(id: $id) { id event details chainPosition checksum personEmail } }';
const VERIFY = 'mutation { verifyAuditChain { ok entriesChecked checkedAt brokenAt verifiedBy } }';
const LATEST = 'query { latestAuditVerification { ok entriesChecked checkedAt } }';
const TOKENS = 'query { apiTokens { id name tokenHint scopes revokedAt } }';
const CREATE_TOKEN =
  'mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id name tokenHint scopes expiresAt } } }';
const REVOKE_TOKEN = 'mutation ($id: ID!) { revokeApiToken(id: $id) { id revokedAt } }';

function cookieOf(role: Role): Record<string, string> {
  const cookie = clients.get(role)?.cookie;
  return cookie ? { cookie } : {};
}

function postLogs(role: Role | null, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/audit/logs',
    headers: {
      'content-type': 'application/json',
      'x-audit-batch': 'b1',
      ...(role ? cookieOf(role) : {}),
      ...headers,
    },
    payload: payload as string,
  });
}

function searchHttp(query: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/api/audit/search?${query}`, headers });
}

function messageOf(response: LightMyRequestResponse): string {
  return response.json<{ errors?: { message: string }[]; message?: string }>().errors?.[0]?.message ?? '';
}

async function newToken(
  values: { scopes?: string[]; expiresAt?: Date; revoked?: boolean } = {},
): Promise<{ id: string; secret: string }> {
  const secret = generateApiTokenSecret();
  const row = await insertApiToken(db(), {
    name: 'Collector',
    secret,
    scopes: values.scopes ?? ['audit:read'],
    createdBy: userIds.get('admin')!,
    expiresAt: values.expiresAt ?? new Date(Date.now() + 86_400_000),
  });
  if (values.revoked) {
    await db()
      .update(apiTokens)
      .set({ revokedAt: new Date(), revokedBy: userIds.get('admin')! })
      .where(eq(apiTokens.id, row.id));
  }
  return { id: row.id, secret };
}

async function lastId(): Promise<number> {
  const [row] = await db()
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row?.id ?? 0;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const [role, email] of [
    ['admin', 'admin@demo.test'],
    ['provider', 'provider@demo.test'],
    ['patient', 'patient@demo.test'],
  ] as const) {
    const client = new TestClient(t.app);
    const signedIn = await client.signIn(email, DEMO_PASSWORD);
    clients.set(role, client);
    userIds.set(role, signedIn.user!.userId);
  }
  clients.set('signed-out', new TestClient(t.app));
});

describe('who may search the audit trail and manage API tokens', () => {
  const operations: [string, string, Record<string, unknown>][] = [
    ['auditEntries', SEARCH, {}],
    ['auditEntry', ENTRY, { id: '1' }],
    ['verifyAuditChain', VERIFY, {}],
    ['latestAuditVerification', LATEST, {}],
    ['apiTokens', TOKENS, {}],
    ['createApiToken', CREATE_TOKEN, { input: { name: 'Nope', scopes: ['audit:read'], expiresInDays: 30 } }],
    ['revokeApiToken', REVOKE_TOKEN, { id: '00000000-0000-4000-8000-000000000000' }],
  ];
  for (const [name, query, variables] of operations) {
    for (const who of ['provider', 'patient', 'signed-out'] as const) {
      it(`${name}: ${who} is refused`, async () => {
        const response = await clients.get(who)!.gql<Record<string, unknown>>(query, variables);
        // A nullable field answers null beside its error; the others null the whole data.
        expect(response.data?.[name] ?? null).toBeNull();
        expect(response.errors?.[0]?.extensions?.code).toBe(who === 'signed-out' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        if (who !== 'signed-out') expect(response.errors?.[0]?.message).toBe(MESSAGES.adminRequired);
      });
    }
  }

  it('GET /api/audit/search: provider, patient and signed-out are refused; the admin session is answered', async () => {
    for (const role of ['provider', 'patient'] as const) {
      const response = await searchHttp('limit=5', cookieOf(role));
      expect(response.statusCode).toBe(403);
      expect(messageOf(response)).toBe(MESSAGES.adminRequired);
    }
    const signedOut = await searchHttp('limit=5');
    expect(signedOut.statusCode).toBe(401);
    expect(messageOf(signedOut)).toBe(AUDIT_MESSAGES.tokenRequired);
    const admin = await searchHttp('limit=5', cookieOf('admin'));
    expect(admin.statusCode).toBe(200);
    expect(admin.json<{ logs: unknown[]; count: number }>().count).toBeGreaterThan(0);
  });
});

describe('API tokens', () => {
  it('are created once with their secret, stored hashed, answer the search, and stop when revoked', async () => {
    const admin = clients.get('admin')!;
    const created = await admin.gql<{
      createApiToken: { secret: string; token: { id: string; tokenHint: string; scopes: string[] } };
    }>(CREATE_TOKEN, { input: { name: 'SIEM export', scopes: ['audit:read'], expiresInDays: 90 } });
    const { secret, token } = created.data!.createApiToken;
    expect(secret).toMatch(/^thk_[A-Za-z0-9_-]{43}$/);
    expect(token.tokenHint).toBe(secret.slice(-4));
    const [stored] = await db().select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(stored?.tokenHash).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret);
    // Never listed again.
    const listed = await admin.gql<{ apiTokens: Record<string, unknown>[] }>(TOKENS);
    expect(JSON.stringify(listed.data)).not.toContain(secret);

    const since = await lastId();
    const ok = await searchHttp('limit=3', { authorization: `Bearer ${secret}` });
    expect(ok.statusCode).toBe(200);
    const [searchEntry] = await db()
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'AUDIT_SEARCH'), gt(auditEntries.id, since)));
    expect(searchEntry).toMatchObject({ userId: `api-token:${token.id}`, userRole: 'api-token' });

    const revoked = await admin.gql<{ revokeApiToken: { revokedAt: string | null } }>(REVOKE_TOKEN, { id: token.id });
    expect(revoked.data?.revokeApiToken.revokedAt).not.toBeNull();
    const after = await searchHttp('limit=3', { authorization: `Bearer ${secret}` });
    expect(after.statusCode).toBe(401);
    expect(messageOf(after)).toBe(AUDIT_MESSAGES.tokenInvalid);
  });

  it('refuses an expired token, a token without audit:read, a revoked and an unknown one, and audits each', async () => {
    const expired = await newToken({ expiresAt: new Date(Date.now() - 1000) });
    const noScope = await newToken({ scopes: ['metrics:read'] });
    const revoked = await newToken({ revoked: true });
    const since = await lastId();
    for (const [secret, status] of [
      [expired.secret, 401],
      [noScope.secret, 403],
      [revoked.secret, 401],
      [generateApiTokenSecret(), 401],
      ['not-a-token', 401],
    ] as const) {
      const response = await searchHttp('limit=1', { authorization: `Bearer ${secret}` });
      expect(response.statusCode, secret).toBe(status);
      expect(JSON.stringify(response.json())).not.toContain('"logs"');
    }
    const denials = await db()
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), gt(auditEntries.id, since)));
    expect(denials.map((d) => (d.details as { reason: string }).reason).sort()).toEqual(
      ['expired token', 'revoked token', 'token without the audit:read scope', 'unknown token'].sort(),
    );
  });

  it('refuses a bad name or lifetime with a message, creating nothing', async () => {
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(apiTokens);
    const response = await clients
      .get('admin')!
      .gql(CREATE_TOKEN, { input: { name: 'x', scopes: ['audit:write'], expiresInDays: 7 } });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toContain('Name must be at least 2 characters');
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(apiTokens);
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});

describe('the browser audit endpoints', () => {
  it('stores a batch marked client, with the identity of the session, never of the body, redacted', async () => {
    const since = await lastId();
    const response = await postLogs(
      'provider',
      JSON.stringify({
        batchId: 'batch-1',
        timestamp: new Date().toISOString(),
        logs: [
          {
            event: 'PAGE_VIEW',
            level: 'INFO',
            url: '/patients',
            userId: userIds.get('admin'),
            userRole: 'admin',
            checksum: 'forged',
            details: { screen: 'patients', password: 'hunter2', nested: { token: 'abc', ssn: '123-45-6789', ok: 1 } },
          },
          { event: 'CLIENT_ERROR', level: 'ERROR', details: { message: 'boom' } },
        ],
      }),
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: 2, batchId: 'batch-1' });
    const stored = await db()
      .select()
      .from(auditEntries)
      .where(and(gt(auditEntries.id, since), eq(auditEntries.source, 'client')))
      .orderBy(auditEntries.id);
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({
      event: 'PAGE_VIEW',
      source: 'client',
      userId: userIds.get('provider'),
      userRole: 'provider',
      url: '/patients',
    });
    expect(stored[0]?.details).toMatchObject({ screen: 'patients', nested: { ok: 1 }, batchId: 'batch-1' });
    const text = JSON.stringify(stored[0]?.details);
    for (const secret of ['hunter2', 'abc', '123-45-6789']) expect(text).not.toContain(secret);
    expect(stored[1]).toMatchObject({ event: 'CLIENT_ERROR', level: 'ERROR', source: 'client' });
  });

  it('takes one critical entry at /api/audit/critical', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/audit/critical',
      headers: { 'content-type': 'application/json', 'x-audit-critical': 'true', ...cookieOf('patient') },
      payload: { event: 'UNAUTHORIZED_ACCESS', level: 'WARNING', url: '/admin', details: { screen: 'admin' } },
    });
    expect(response.statusCode).toBe(202);
    const [row] = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.source, 'client'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(row).toMatchObject({ event: 'UNAUTHORIZED_ACCESS', userId: userIds.get('patient'), hipaaRequired: true });
  });

  it('refuses bad, forged, oversized and signed-out bodies with a 4xx and a message, storing nothing', async () => {
    const since = await lastId();
    const valid = { batchId: 'b', timestamp: new Date().toISOString(), logs: [{ event: 'PAGE_VIEW' }] };
    const cases: [string, Awaited<ReturnType<typeof postLogs>>, number, string][] = [
      ['not JSON', await postLogs('provider', '{nope'), 400, 'not valid JSON'],
      ['no logs', await postLogs('provider', JSON.stringify({ ...valid, logs: [] })), 400, 'at least one entry'],
      [
        'a server event',
        await postLogs('provider', JSON.stringify({ ...valid, logs: [{ event: 'LOGIN' }] })),
        400,
        'event must be one of',
      ],
      [
        'a chain verification',
        await postLogs('provider', JSON.stringify({ ...valid, logs: [{ event: 'AUDIT_CHAIN_VERIFIED' }] })),
        400,
        'event must be one of',
      ],
      [
        'too many entries',
        await postLogs(
          'provider',
          JSON.stringify({ ...valid, logs: Array.from({ length: AUDIT_BATCH_MAX_ENTRIES + 1 }, () => valid.logs[0]) }),
        ),
        400,
        `at most ${AUDIT_BATCH_MAX_ENTRIES} entries`,
      ],
      [
        'oversized body',
        await postLogs(
          'provider',
          JSON.stringify({ ...valid, logs: [{ event: 'PAGE_VIEW', details: { blob: 'x'.repeat(200_000) } }] }),
        ),
        413,
        'larger than the limit',
      ],
      [
        'details too large',
        await postLogs(
          'provider',
          JSON.stringify({ ...valid, logs: [{ event: 'PAGE_VIEW', details: { blob: 'x'.repeat(5000) } }] }),
        ),
        400,
        'details must be at most',
      ],
      [
        'prototype key',
        await postLogs(
          'provider',
          '{"batchId":"b","timestamp":"2026-01-01T00:00:00Z","logs":[{"event":"PAGE_VIEW","details":{"__proto__":{"x":1}}}]}',
        ),
        400,
        '__proto__',
      ],
      ['no header', await postLogs('provider', JSON.stringify(valid), { 'x-audit-batch': '' }), 400, 'X-Audit-Batch'],
      ['signed out', await postLogs(null, JSON.stringify(valid)), 401, ''],
    ];
    for (const [label, response, status, message] of cases) {
      expect(response.statusCode, label).toBe(status);
      if (message) expect(JSON.stringify(response.json()), label).toContain(message);
    }
    expect(await lastId()).toBe(since);
  });

  it('limits the audit requests of one account', async () => {
    const admin = userIds.get('admin')!;
    const limiter = t.runtime.rateLimiter;
    for (let i = 0; i < AUDIT_INTAKE_RATE.maxAttempts; i++) await limiter.record(db(), 'audit-intake', admin);
    const response = await postLogs(
      'admin',
      JSON.stringify({ batchId: 'b', timestamp: new Date().toISOString(), logs: [{ event: 'PAGE_VIEW' }] }),
    );
    expect(response.statusCode).toBe(429);
    expect(messageOf(response)).toMatch(/Too many/i);
  });
});

describe('searching', () => {
  const patientA = crypto.randomUUID();
  const marker = `marker-${crypto.randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const base = Date.parse('2026-01-10T12:00:00.000Z');
    // 120 entries over two hours, a known patient in every third, a few warnings; two share each timestamp.
    await appendAuditEntries(
      db(),
      Array.from({ length: 120 }, (_, i) => ({
        event: i % 3 === 0 ? ('PATIENT_VIEW' as const) : ('APPOINTMENT_VIEW' as const),
        level: i % 10 === 0 ? ('WARNING' as const) : ('INFO' as const),
        actor: { ...SYSTEM_ACTOR, userId: i % 2 === 0 ? 'search-person-a' : 'search-person-b', userRole: 'provider' },
        url: i === 7 ? `/patients?${marker}` : 'getPatient',
        timestamp: new Date(base + Math.floor(i / 2) * 60_000),
        details: i % 3 === 0 ? { patientIds: [patientA] } : {},
      })),
    );
  });

  async function searchAll(filter: Record<string, unknown>, first = 7) {
    const seen: { id: string; timestamp: string; event: string; userId: string; level: string }[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const response: Awaited<ReturnType<TestClient['gql']>> = await clients
        .get('admin')!
        .gql(SEARCH, { filter, first, after });
      const page = (response.data as { auditEntries: { entries: typeof seen; nextCursor: string | null } } | null)
        ?.auditEntries;
      if (!page) throw new Error(JSON.stringify(response.errors));
      seen.push(...page.entries);
      after = page.nextCursor;
      if (!after) break;
    }
    return seen;
  }

  it('pages by keyset through every match exactly once, newest first', async () => {
    const period = { from: '2026-01-10T12:00:00.000Z', to: '2026-01-10T14:00:00.000Z' };
    const all = await searchAll(period);
    expect(all).toHaveLength(120);
    expect(new Set(all.map((e) => e.id)).size).toBe(120);
    const order = all.map((e) => [Date.parse(e.timestamp), Number(e.id)] as const);
    for (let i = 1; i < order.length; i++) {
      const [ta, ia] = order[i - 1]!;
      const [tb, ib] = order[i]!;
      expect(ta > tb || (ta === tb && ia > ib)).toBe(true);
    }
  });

  it('filters by person, event, level, patient, text and period together', async () => {
    const period = { from: '2026-01-10T12:00:00.000Z', to: '2026-01-10T14:00:00.000Z' };
    expect(await searchAll({ ...period, person: 'search-person-a' })).toHaveLength(60);
    expect(await searchAll({ ...period, event: 'PATIENT_VIEW' })).toHaveLength(40);
    expect(await searchAll({ ...period, level: 'WARNING' })).toHaveLength(12);
    expect(await searchAll({ patientId: patientA })).toHaveLength(40);
    expect(await searchAll({ ...period, person: 'search-person-a', patientId: patientA })).toHaveLength(20);
    const byText = await searchAll({ text: marker });
    expect(byText).toHaveLength(1);
    expect(await searchAll({ from: '2026-01-10T12:30:00.000Z', to: '2026-01-10T12:39:59.999Z' })).toHaveLength(20);
  });

  it('finds a person by e-mail address, and refuses a bad filter or a forged cursor with a message', async () => {
    await clients.get('provider')!.gql('{ me { userId } }');
    const byEmail = await searchAll({ person: 'admin@demo.test', event: 'ADMIN_LOGIN' });
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((e) => e.userId === userIds.get('admin'))).toBe(true);

    const admin = clients.get('admin')!;
    const bad = await admin.gql(SEARCH, { filter: { level: 'LOUD', patientId: 'x', from: 'yesterday' } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toContain('Level must be INFO, WARNING or ERROR');
    const reversed = await admin.gql(SEARCH, {
      filter: { from: '2026-01-11T00:00:00Z', to: '2026-01-10T00:00:00Z' },
    });
    expect(reversed.errors?.[0]?.message).toContain('From must be before To');
    const forged = await admin.gql(SEARCH, { after: 'eyJhIjoxfQ.forged' });
    expect(forged.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const api = await searchHttp('limit=5000', cookieOf('admin'));
    expect(api.statusCode).toBe(400);
    expect(messageOf(api)).toContain('limit must be at most 1000');
  });

  it('answers the specification parameters on GET /api/audit/search, limit 100 by default', async () => {
    const response = await searchHttp(
      `startDate=2026-01-10T12:00:00.000Z&endDate=2026-01-10T14:00:00.000Z&userId=search-person-b&event=APPOINTMENT_VIEW`,
      cookieOf('admin'),
    );
    expect(response.statusCode).toBe(200);
    const body = response.json<{ logs: Record<string, unknown>[]; count: number; nextCursor: string | null }>();
    expect(body.count).toBe(40);
    expect(body.logs[0]).toMatchObject({ userId: 'search-person-b', event: 'APPOINTMENT_VIEW', source: 'server' });
    expect(Object.keys(body.logs[0]!)).toEqual(expect.arrayContaining(['clientIP', 'checksum', 'hipaaRequired']));
    const all = await searchHttp('', cookieOf('admin'));
    expect(all.json<{ count: number }>().count).toBe(100);
  });

  it('audits every search and every entry read', async () => {
    const since = await lastId();
    const admin = clients.get('admin')!;
    const found = await admin.gql<{ auditEntries: { entries: { id: string }[] } }>(SEARCH, {
      filter: { text: marker },
    });
    const id = found.data!.auditEntries.entries[0]!.id;
    const entry = await admin.gql<{ auditEntry: { id: string; details: string } }>(ENTRY, { id });
    expect(entry.data?.auditEntry.id).toBe(id);
    const written = await db()
      .select({ event: auditEntries.event, details: auditEntries.details, userId: auditEntries.userId })
      .from(auditEntries)
      .where(gt(auditEntries.id, since))
      .orderBy(auditEntries.id);
    expect(written.map((w) => w.event)).toEqual(['AUDIT_SEARCH', 'AUDIT_ENTRY_VIEW']);
    expect(written[0]?.details).toMatchObject({ filters: { textLength: marker.length }, results: 1 });
    expect(JSON.stringify(written[0]?.details)).not.toContain(marker);
    expect(written[1]?.details).toEqual({ entryId: Number(id) });
    const missing = await admin.gql(ENTRY, { id: '999999999' });
    expect(missing.errors?.[0]?.message).toBe(AUDIT_MESSAGES.entryNotFound);
  });
});

describe('verifying the chain', () => {
  it('records each verification, which the latest verification then answers', async () => {
    await sealEverything(db());
    const admin = clients.get('admin')!;
    const result = await admin.gql<{
      verifyAuditChain: { ok: boolean; entriesChecked: number; checkedAt: string; verifiedBy: string };
    }>(VERIFY);
    const verification = result.data!.verifyAuditChain;
    expect(verification.ok).toBe(true);
    expect(verification.entriesChecked).toBeGreaterThan(100);
    expect(verification.verifiedBy).toBe(userIds.get('admin'));
    const [entry] = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'AUDIT_CHAIN_VERIFIED'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(entry).toMatchObject({ level: 'INFO', source: 'server', userId: userIds.get('admin') });
    expect(entry?.details).toMatchObject({
      ok: true,
      entriesChecked: verification.entriesChecked,
      checkedAt: verification.checkedAt,
    });
    const latest = await admin.gql<{ latestAuditVerification: { checkedAt: string } }>(LATEST);
    expect(latest.data?.latestAuditVerification.checkedAt).toBe(verification.checkedAt);
  });

  it('a browser cannot forge a verification, and turning its entry into a server fact breaks the chain', async () => {
    await sealEverything(db());
    const [client] = await db()
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(eq(auditEntries.source, 'client'))
      .limit(1);
    // As a tamperer with the database would: around the append-only trigger.
    await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.update(auditEntries).set({ source: 'server' }).where(eq(auditEntries.id, client!.id));
    });
    const result = await clients
      .get('admin')!
      .gql<{ verifyAuditChain: { ok: boolean; brokenAt: number | null } }>(VERIFY);
    expect(result.data?.verifyAuditChain.ok).toBe(false);
    expect(result.data?.verifyAuditChain.brokenAt).not.toBeNull();
    const [broken] = await db().select().from(auditEntries).orderBy(desc(auditEntries.id)).limit(1);
    expect(broken).toMatchObject({ event: 'AUDIT_CHAIN_BROKEN', level: 'ERROR' });
    await db().transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.update(auditEntries).set({ source: 'client' }).where(eq(auditEntries.id, client!.id));
    });
  });
});
