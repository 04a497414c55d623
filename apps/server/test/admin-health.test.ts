/**
 * The system's health (`systemHealth`, `/admin/health`) and the operator's side (`/metrics`), decision 038: only
 * administrators read the health; each check's verdict follows its figures (a failed job makes the queue
 * "Attention"); /api/health keeps its small contract; /metrics is closed unless the caller brings the token or
 * comes from an allowed address, and then serves Prometheus text with the expected metrics.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_LIMITS, messageText } from '@telehealth/shared';
import { allowList, metricsAccess } from '../src/admin-console/metrics.ts';
import {
  judgeDisk,
  judgeJobQueue,
  judgeMail,
  judgeSealer,
  type SealerFigures,
} from '../src/admin-console/system-health.ts';
import { createTestAccount, createTestApp, TestClient, type TestApp } from './helpers.ts';
import { TEST_BUDGET_MS } from './budget.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const PASSWORD = 'Health-Pass-2026!';
const HEALTH = `{ systemHealth { overall checkedAt
  database { verdict reason figures { sizeBytes latencyMs } }
  jobs { verdict reason figures { pending running overdue retrying failed } }
  mail { verdict reason figures { waiting failed kept smtpConfigured } }
  auditSealer { verdict reason figures { headPosition lastSealedAt unsealed lagSeconds lastAnchorPosition } }
  backups { verdict reason figures { schedule lastScheduledStatus lastScheduledAt lastSucceededAt } }
  disk { verdict reason figures { path freeBytes totalBytes } }
  server { verdict reason figures { version uptimeSeconds startedAt nodeVersion } } } }`;

interface Check<F> {
  verdict: string;
  reason: string;
  figures: F | null;
}
interface Health {
  overall: string;
  database: Check<{ sizeBytes: number; latencyMs: number }>;
  jobs: Check<{ pending: number; running: number; overdue: number; retrying: number; failed: number }>;
  mail: Check<{ waiting: number; failed: number; kept: number; smtpConfigured: boolean }>;
  auditSealer: Check<{ headPosition: number | null; unsealed: number; lagSeconds: number }>;
  backups: Check<{ lastScheduledStatus: string | null; lastSucceededAt: string | null }>;
  disk: Check<{ freeBytes: number; totalBytes: number }>;
  server: Check<{ version: string; uptimeSeconds: number }>;
}

let t: TestApp;
let admin: TestClient;
const others: Record<'provider' | 'patient', TestClient> = {} as never;

async function health(): Promise<Health> {
  const response = await admin.gql<{ systemHealth: Health }>(HEALTH);
  expect(response.errors).toBeUndefined();
  return response.data!.systemHealth;
}

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN }, { demo: false });
  for (const role of ['admin', 'provider', 'patient'] as const) {
    await createTestAccount(t.runtime, {
      email: `${role}@health.example`,
      firstName: role,
      lastName: 'Health',
      role,
      password: PASSWORD,
      emailVerified: true,
    });
  }
  admin = new TestClient(t.app);
  expect((await admin.signIn('admin@health.example', PASSWORD)).success).toBe(true);
  for (const role of ['provider', 'patient'] as const) {
    others[role] = new TestClient(t.app);
    expect((await others[role].signIn(`${role}@health.example`, PASSWORD)).success).toBe(true);
  }
});

describe('who may read the health', () => {
  it.each(['provider', 'patient'] as const)('refuses a %s', async (role) => {
    const response = await others[role].gql(HEALTH);
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(response.errors?.[0]?.message).toBe(messageText('messages.adminRequired'));
  });

  it('refuses a caller without a session', async () => {
    const response = await new TestClient(t.app).gql(HEALTH);
    expect(response.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('the checks', () => {
  it('answers every check with its figures, the database, the queue, the sealer, the disk and the server', async () => {
    await t.runtime.jobs.drain();
    // The sealer runs about once a second on its own: wait until it has sealed the accounts' entries.
    await expect
      .poll(async () => (await health()).auditSealer.figures!.headPosition, { timeout: TEST_BUDGET_MS })
      .toBeGreaterThan(0);
    const result = await health();
    // A loaded test machine may answer slowly: that is the one other verdict the database may have here.
    expect([`OK ok`, `ATTENTION databaseSlow`]).toContain(`${result.database.verdict} ${result.database.reason}`);
    expect(result.database.figures!.sizeBytes).toBeGreaterThan(1_000_000);
    const givenUp = await t.runtime.database.db.execute<{ task: string; error: string | null }>(sql`
      SELECT task_identifier AS task, last_error AS error FROM graphile_worker.jobs
      WHERE attempts >= max_attempts AND locked_at IS NULL`);
    expect(givenUp.rows).toEqual([]);
    expect(result.jobs).toMatchObject({ verdict: 'OK', figures: { failed: 0, overdue: 0 } });
    // No SMTP_URL, but demo mode (the tests' default): the outbox keeping mail is how the demo works.
    expect(result.mail).toMatchObject({ verdict: 'OK', reason: 'mailKeptDemo', figures: { smtpConfigured: false } });
    expect(result.auditSealer.figures!.headPosition).toBeGreaterThan(0);
    expect(result.auditSealer.figures!.lagSeconds).toBeLessThan(HEALTH_LIMITS.sealerAttentionSeconds);
    expect(result.disk.figures!.freeBytes).toBeGreaterThan(0);
    expect(result.disk.figures!.totalBytes).toBeGreaterThanOrEqual(result.disk.figures!.freeBytes);
    expect(result.server.figures!.version).toBe(t.runtime.config.version);
    expect(result.server.figures!.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('says Attention for backups after a failed scheduled backup, and OK once a later one succeeds', async () => {
    const db = t.runtime.database.db;
    expect((await health()).backups).toMatchObject({ verdict: 'OK', reason: 'ok' });
    await db.execute(sql`INSERT INTO backup_runs (started_at, finished_at, status, trigger, error)
      VALUES (now() - interval '2 hours', now() - interval '119 minutes', 'failed', 'schedule', 'disk full')`);
    const failing = await health();
    expect(failing.backups).toMatchObject({
      verdict: 'ATTENTION',
      reason: 'backupScheduledFailed',
      figures: { lastScheduledStatus: 'failed' },
    });
    expect(['ATTENTION', 'PROBLEM']).toContain(failing.overall);
    await db.execute(sql`INSERT INTO backup_runs (started_at, finished_at, status, trigger)
      VALUES (now() - interval '1 hour', now() - interval '59 minutes', 'succeeded', 'manual')`);
    expect((await health()).backups).toMatchObject({ verdict: 'OK', reason: 'ok' });
  });

  it('says Attention for the job queue while a job has given up, and OK once it is removed', async () => {
    const db = t.runtime.database.db;
    // A job far in the future (no worker takes it), then marked as having used its last attempt.
    const added = await db.execute<{ id: string }>(sql`
      SELECT id::text FROM graphile_worker.add_job('rate-limits:prune', '{}'::json,
        run_at := now() + interval '1 day', max_attempts := 1)`);
    const id = added.rows[0]!.id;
    await db.execute(sql`UPDATE graphile_worker._private_jobs
      SET attempts = max_attempts, last_error = 'failed in a test' WHERE id = ${id}::bigint`);
    const failing = await health();
    expect(failing.jobs).toMatchObject({ verdict: 'ATTENTION', reason: 'jobsFailed', figures: { failed: 1 } });
    expect(['ATTENTION', 'PROBLEM']).toContain(failing.overall);

    await db.execute(sql`DELETE FROM graphile_worker._private_jobs WHERE id = ${id}::bigint`);
    // Any other job that gave up meanwhile is named, so that a failure here says which.
    const givenUp = await db.execute<{ task: string; error: string | null }>(sql`
      SELECT task_identifier AS task, last_error AS error FROM graphile_worker.jobs
      WHERE attempts >= max_attempts AND locked_at IS NULL`);
    expect(givenUp.rows).toEqual([]);
    expect((await health()).jobs).toMatchObject({ verdict: 'OK', figures: { failed: 0 } });
  });

  it('judges each figure by its thresholds', () => {
    const now = new Date();
    expect(judgeJobQueue({ pending: 3, running: 1, overdue: 0, retrying: 0, failed: 0 }).verdict).toBe('OK');
    expect(judgeJobQueue({ pending: 3, running: 0, overdue: 2, retrying: 0, failed: 0 }).reason).toBe('jobsOverdue');
    expect(judgeJobQueue({ pending: 1, running: 0, overdue: 0, retrying: 1, failed: 0 }).reason).toBe('jobsFailing');

    const mail = { waiting: 0, failed: 0, kept: 4, oldestWaitingAt: null };
    expect(judgeMail(mail, { smtp: false, demoMode: false, now })).toEqual({
      verdict: 'PROBLEM',
      reason: 'mailNotSent',
    });
    expect(judgeMail({ ...mail, failed: 1 }, { smtp: true, demoMode: false, now }).reason).toBe('mailFailed');
    const late = new Date(now.getTime() - (HEALTH_LIMITS.mailWaitingSeconds + 60) * 1000);
    expect(judgeMail({ ...mail, waiting: 1, oldestWaitingAt: late }, { smtp: true, demoMode: false, now }).reason).toBe(
      'mailWaiting',
    );
    expect(judgeMail({ ...mail, waiting: 1, oldestWaitingAt: now }, { smtp: true, demoMode: false, now }).verdict).toBe(
      'OK',
    );

    const sealer: SealerFigures = {
      headPosition: 10,
      lastSealedAt: now,
      unsealed: 0,
      lagSeconds: 0,
      lastAnchorPosition: 10,
      lastAnchorAt: now,
    };
    expect(judgeSealer(sealer, now).verdict).toBe('OK');
    expect(judgeSealer({ ...sealer, unsealed: 5, lagSeconds: 45 }, now).reason).toBe('sealerLagging');
    expect(judgeSealer({ ...sealer, unsealed: 5, lagSeconds: 3600 }, now)).toEqual({
      verdict: 'PROBLEM',
      reason: 'sealerStopped',
    });
    const hourAgo = new Date(now.getTime() - 3_600_000);
    expect(judgeSealer({ ...sealer, lastSealedAt: hourAgo, lastAnchorPosition: null }, now).reason).toBe(
      'anchorMissing',
    );

    const gib = 1024 ** 3;
    expect(judgeDisk({ path: '/', freeBytes: 50 * gib, totalBytes: 100 * gib }).verdict).toBe('OK');
    expect(judgeDisk({ path: '/', freeBytes: 8 * gib, totalBytes: 100 * gib }).reason).toBe('diskLow');
    expect(judgeDisk({ path: '/', freeBytes: 1 * gib, totalBytes: 100 * gib }).reason).toBe('diskCritical');
  });
});

describe('/api/health for load balancers', () => {
  it('keeps its small answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', version: t.runtime.config.version });
  });
});

describe('/metrics', () => {
  const scrape = (options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', ...options });

  it('refuses a caller from outside without the token, and a wrong token from anywhere', async () => {
    const outside = await scrape({ remoteAddress: '203.0.113.9' });
    expect(outside.statusCode).toBe(401);
    expect(outside.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(outside.body).not.toContain('telehealth_');
    const wrong = await scrape({ headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.statusCode).toBe(401);
    // A request a proxy forwarded, while TRUST_PROXY is off: its loopback address is the proxy's, not the client's.
    const forwarded = await scrape({ headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(forwarded.statusCode).toBe(401);
  });

  it('without a token configured, refuses outside addresses and allows the METRICS_ALLOW ones', () => {
    const config = { metrics: { token: null, allow: ['loopback', '10.0.0.0/8'] }, trustProxy: false as const };
    const allowed = allowList(config.metrics.allow);
    const ask = (ip: string, headers: Record<string, string> = {}) => metricsAccess({ ip, headers }, config, allowed);
    expect(ask('203.0.113.9')).toBe('forbidden');
    expect(ask('127.0.0.1')).toBe('ok');
    expect(ask('::1')).toBe('ok');
    expect(ask('::ffff:127.0.0.1')).toBe('ok');
    expect(ask('10.2.3.4')).toBe('ok');
    expect(ask('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toBe('forbidden');
    const none = { metrics: { token: null, allow: [] }, trustProxy: false as const };
    expect(metricsAccess({ ip: '127.0.0.1', headers: {} }, none, allowList([]))).toBe('forbidden');
  });

  it('serves Prometheus text with the token, or from loopback, with route patterns and never raw URLs', async () => {
    // A request whose URL holds a secret-looking value: only its route pattern may appear.
    await t.app.inject({ method: 'GET', url: '/api/calendar/not-a-real-feed-token-5f3a.ics' });
    await admin.gql('{ me { userId } }');

    const response = await scrape({ remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    for (const name of [
      'telehealth_http_request_duration_seconds_bucket',
      'telehealth_http_request_duration_seconds_count',
      'telehealth_db_pool_connections',
      'telehealth_job_queue_jobs',
      'telehealth_mail_undelivered',
      'telehealth_audit_sealer_lag_seconds',
      'telehealth_audit_unsealed_entries',
      'telehealth_audit_chain_head_position',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
    }
    expect(text).toMatch(/^telehealth_db_pool_connections\{state="waiting"\} \d+$/m);
    expect(text).toMatch(/^telehealth_job_queue_jobs\{state="failed"\} \d+$/m);
    expect(text).toContain('route="/graphql"');
    expect(text).toContain('route="/api/calendar/:file"');
    expect(text).not.toContain('not-a-real-feed-token');
    // Every line is a comment or `name{labels} value`: the exposition format.
    for (const line of text.split('\n').filter(Boolean)) {
      expect(line).toMatch(/^(# (HELP|TYPE) .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? -?[0-9.e+-]+|.+ (NaN|[+-]Inf))$/);
    }

    const loopback = await scrape();
    expect(loopback.statusCode).toBe(200);
    expect(loopback.body).toContain('telehealth_audit_sealer_lag_seconds');
  });
});
