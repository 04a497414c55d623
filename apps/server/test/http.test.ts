import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEMO_PASSWORD, ERROR_CODES, REQUEST_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { createTestApp, TestClient } from './helpers.ts';

describe('health', () => {
  it('answers ok with the database and version', async () => {
    const t = await createTestApp({}, { demo: false });
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', version: expect.any(String) as unknown });
  });

  it('answers 503 degraded when the database is unreachable', async () => {
    const t = await createTestApp({}, { demo: false });
    // The job queue first: its audit-sealing job would otherwise fail on the ended pool and log it.
    await t.runtime.jobs.stop();
    await t.runtime.database.pool.end();
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'degraded' });
    // Not ready either, saying why; live still, as the process answers.
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual(notReady('notReadyDatabase'));
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});

/** The one body of a refusal (decision 052) for a not-ready instance. */
const notReady = (key: 'notReadyDraining' | 'notReadyDatabase' | 'notReadyMigrations') => ({
  errors: [
    {
      message: REQUEST_MESSAGES[key],
      extensions: { code: ERROR_CODES.notReady, messageId: `requestMessages.${key}`, params: {} },
    },
  ],
});

describe('live and ready, for load balancers (decision 072)', () => {
  it('is live and ready on a migrated database, never cached, and its checks are not logged at info', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      { LOG_LEVEL: 'info' },
      { demo: false, logStream: { write: (line) => void lines.push(line) } },
    );
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    for (const response of [live, ready]) expect(response.headers['cache-control']).toBe('no-store');
    // A balancer asks every second: no request lines for those (while /api/health, asked by people, keeps them).
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const paths = lines.map((line) => (JSON.parse(line) as { req?: { path?: string } }).req?.path);
    expect(paths).toContain('/api/health');
    expect(paths.filter((path) => path?.startsWith('/api/health/'))).toEqual([]);
  });

  it('is not ready while a migration of this version is missing from the database', async () => {
    const t = await createTestApp({}, { demo: false });
    const { pool } = t.runtime.database;
    const latest = await pool.query<{ id: number }>(
      'SELECT id FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
    );
    const id = latest.rows[0]!.id;
    // As if the database were one migration behind: its ledger's latest entry is older than this version's.
    await pool.query('UPDATE drizzle.__drizzle_migrations SET created_at = created_at - 1 WHERE id = $1', [id]);
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual(notReady('notReadyMigrations'));
    await pool.query('UPDATE drizzle.__drizzle_migrations SET created_at = created_at + 1 WHERE id = $1', [id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('once draining, is not ready at once but still serves every request, /api/health included', async () => {
    const t = await createTestApp({}, { demo: false });
    t.app.readiness.startDraining();
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual(notReady('notReadyDraining'));
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const client = new TestClient(t.app);
    const me = await client.gql<{ me: null }>('{ me { userId } }');
    expect(me.status).toBe(200);
    expect(me.data).toEqual({ me: null });
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff, a referrer policy and a request id on every response', async () => {
    const t = await createTestApp({}, { demo: false });
    for (const url of ['/api/health', '/login', '/graphql']) {
      const response = await t.app.inject({
        method: url === '/graphql' ? 'POST' : 'GET',
        url,
        ...(url === '/graphql' ? { payload: { query: '{ me { userId } }' } } : {}),
      });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('adds HSTS and Secure cookies when PUBLIC_URL is https', async () => {
    const t = await createTestApp({ PUBLIC_URL: 'https://practice.example' });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    const client = new TestClient(t.app);
    const response = await client.gql(
      'mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
      {
        e: 'admin@demo.test',
        p: DEMO_PASSWORD,
      },
    );
    const cookie = response.setCookies.find((c) => c.includes('session_token='));
    expect(cookie).toMatch(/^__Secure-/);
    expect(cookie).toMatch(/; Secure/);
  });
});

describe('client address', () => {
  async function signInFrom(env: Record<string, string>): Promise<string | null | undefined> {
    const t = await createTestApp(env);
    await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      payload: {
        query: 'mutation ($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
        variables: { e: 'patient@demo.test', p: DEMO_PASSWORD },
      },
    });
    const [entry] = await t.runtime.database.db
      .select({ clientIp: auditEntries.clientIp })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'LOGIN'));
    return entry?.clientIp;
  }

  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy it came through', async () => {
    expect(await signInFrom({})).toBe('127.0.0.1');
    expect(await signInFrom({ TRUST_PROXY: 'loopback' })).toBe('203.0.113.9');
    expect(await signInFrom({ TRUST_PROXY: '10.0.0.0/8' })).toBe('127.0.0.1');
  });
});

describe('web app', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({}, { demo: false });
  });

  it('answers unknown API paths with 404 and app paths with the single-page app (or a build hint)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/nothing' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/assets/gone-0000.js' })).statusCode).toBe(404);
    expect([200, 503]).toContain((await t.app.inject({ method: 'GET', url: '/' })).statusCode);
    expect([200, 503]).toContain((await t.app.inject({ method: 'HEAD', url: '/login' })).statusCode);
    const page = await t.app.inject({ method: 'GET', url: '/patients/123/edit' });
    expect([200, 503]).toContain(page.statusCode);
    if (page.statusCode === 200) expect(page.body).toContain('<div id="root">');
  });

  it('sends built assets compressed and cached for good, the page itself fresh', async (context) => {
    const assets = path.join(t.runtime.config.webDistDir, 'assets');
    const script = fs.existsSync(assets)
      ? fs.readdirSync(assets).find((f) => f.endsWith('.js') && fs.existsSync(path.join(assets, `${f}.br`)))
      : undefined;
    if (!script) return context.skip('the web app is not built');
    const asset = await t.app.inject({
      method: 'GET',
      url: `/assets/${script}`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['cache-control']).toBe('private, no-cache');
  });
});
