import { parseCrontab, type JobHelpers } from 'graphile-worker';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/client.ts';
import { addJob } from '../src/jobs/add-job.ts';
import type { ExtraTask } from '../src/jobs/queue.ts';
import { crontab } from '../src/modules/registry.ts';
import type { Runtime } from '../src/runtime.ts';
import { createTestDatabase, openTestRuntime, sleep } from './helpers.ts';

interface Run {
  n: number;
  attempt: number;
  instance: string;
  ok: boolean;
  ran_at: Date;
}

/**
 * Tasks of these tests only: each run of a job leaves a row in test_job_runs, so a job that ran twice (or
 * never) shows. `instance` names the runtime that ran it.
 */
function testTasks(instance: string): Record<string, ExtraTask> {
  const record = async (payload: unknown, helpers: JobHelpers, ok: boolean) => {
    const { n } = payload as { n: number };
    await helpers.query('INSERT INTO test_job_runs (n, attempt, instance, ok) VALUES ($1, $2, $3, $4)', [
      n,
      helpers.job.attempts,
      instance,
      ok,
    ]);
  };
  return {
    // The shape of a task that keeps itself going (the audit sealer): it adds its successor first, keyed and
    // in a named queue, then works longer than the successor's delay.
    'test:chain': async (payload, helpers) => {
      const { n } = payload as { n: number };
      const started = new Date();
      if (n < CHAIN_LENGTH) {
        await helpers.query(
          `SELECT graphile_worker.add_job('test:chain', json_build_object('n', $1::int), job_key => 'test:chain',
                                          queue_name => 'test-chain', run_at => now() + interval '300 milliseconds')`,
          [n + 1],
        );
      }
      const keyed = await helpers.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE key = 'test:chain'`,
      );
      await sleep(400);
      await helpers.query('INSERT INTO test_chain_runs (n, instance, started_at, keyed) VALUES ($1, $2, $3, $4)', [
        n,
        instance,
        started,
        keyed.rows[0]?.count,
      ]);
    },
    'test:record': async (payload, helpers) => {
      // Long enough for another instance to look for work meanwhile.
      await sleep(10);
      await record(payload, helpers, true);
    },
    // Runs until the test opens the gate (the job in progress at a stop).
    'test:gate': async (payload, helpers) => {
      await gate.promise;
      await record(payload, helpers, true);
    },
    'test:flaky': async (payload, helpers) => {
      const ok = helpers.job.attempts > 1;
      await record(payload, helpers, ok);
      if (!ok) throw new Error('the first attempt fails');
    },
  };
}

async function sqlQuery<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const CHAIN_LENGTH = 4;

/** What test:gate waits for; the test opens it. */
let gate = Promise.withResolvers<void>();

/** Waits (without a fixed time) until the query's first row says `ready`. */
async function until(url: string, text: string, values: unknown[] = []): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if ((await sqlQuery<{ ready: boolean }>(url, text, values))[0]?.ready) return;
    await sleep(50);
  }
  throw new Error(`still not ready: ${text}`);
}

const runs = (url: string) => sqlQuery<Run>(url, 'SELECT * FROM test_job_runs ORDER BY ran_at, n');

describe('the job queue', () => {
  let url: string;

  beforeAll(async () => {
    url = await createTestDatabase();
    await sqlQuery(
      url,
      `CREATE TABLE test_job_runs (n int NOT NULL, attempt int NOT NULL, instance text NOT NULL, ok boolean NOT NULL,
                                   ran_at timestamptz NOT NULL DEFAULT clock_timestamp());
       CREATE TABLE test_chain_runs (n int NOT NULL, instance text NOT NULL, keyed int NOT NULL,
                                     started_at timestamptz NOT NULL, finished_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    );
  });

  const open = (instance: string): Promise<Runtime> => openTestRuntime(url, {}, { extraTasks: testTasks(instance) });

  it('adds a job exactly when the transaction that adds it commits', async () => {
    const runtime = await open('a');
    const db = runtime.database.db;
    // Scheduled an hour ahead so that it stays in the queue to be looked at.
    await db.transaction(async (tx) => {
      await addJob(tx, 'rate-limits:prune', {}, { jobKey: 'test:committed', delayMs: 3_600_000 });
    });
    await db
      .transaction(async (tx) => {
        await addJob(tx, 'rate-limits:prune', {}, { jobKey: 'test:rolled-back', delayMs: 3_600_000 });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const keys = await sqlQuery<{ key: string }>(url, `SELECT key FROM graphile_worker.jobs WHERE key LIKE 'test:%'`);
    expect(keys.map((k) => k.key)).toEqual(['test:committed']);
    await sqlQuery(url, `SELECT graphile_worker.remove_job('test:committed')`);
    // A payload that does not fit the task's schema fails the change that adds it.
    await expect(
      addJob(db, 'rate-limits:prune', 'not an object' as unknown as Record<string, never>),
    ).rejects.toThrow();
    await runtime.close();
  });

  it('runs a job that came due while no server ran, once, when a server is back', async () => {
    const first = await open('first');
    const due = await sqlQuery<{ id: string }>(
      url,
      `SELECT id::text FROM graphile_worker.add_job('test:record', json_build_object('n', 1), run_at => now() + interval '1 second')`,
    );
    await first.close();

    // While no server runs: the first job comes due, and a change adds another one.
    const offline = connectDatabase(url);
    await offline.db.transaction(async (tx) => {
      await tx.execute(`SELECT graphile_worker.add_job('test:record', json_build_object('n', 2))`);
    });
    await offline.close();
    while (
      (
        await sqlQuery<{ due: boolean }>(url, 'SELECT run_at <= now() AS due FROM graphile_worker.jobs WHERE id = $1', [
          due[0]!.id,
        ])
      )[0]?.due !== true
    )
      await sleep(100);
    expect(await runs(url)).toEqual([]);

    const second = await open('second');
    await second.jobs.drain();
    const done = await runs(url);
    expect(done.map((r) => [r.n, r.instance, r.ok])).toEqual(
      expect.arrayContaining([
        [1, 'second', true],
        [2, 'second', true],
      ]),
    );
    expect(done).toHaveLength(2);
    await second.close();
    await sqlQuery(url, 'DELETE FROM test_job_runs');
  });

  it('runs each job once when two instances share the database', async () => {
    const jobs = 60;
    const [a, b] = await Promise.all([open('a'), open('b')]);
    await sqlQuery(
      url,
      `SELECT graphile_worker.add_job('test:record', json_build_object('n', n)) FROM generate_series(1, $1::int) AS n`,
      [jobs],
    );
    await Promise.all([a.jobs.drain(), b.jobs.drain()]);
    const done = await runs(url);
    expect(done.map((r) => r.n).sort((x, y) => x - y)).toEqual(Array.from({ length: jobs }, (_, i) => i + 1));
    expect(done.every((r) => r.ok && r.attempt === 1)).toBe(true);
    await Promise.all([a.close(), b.close()]);
    await sqlQuery(url, 'DELETE FROM test_job_runs');
  });

  it('keeps a self-rescheduling task to one pending job, and its runs one at a time, across two instances', async () => {
    const [a, b] = await Promise.all([open('a'), open('b')]);
    await sqlQuery(
      url,
      `SELECT graphile_worker.add_job('test:chain', json_build_object('n', 1), job_key => 'test:chain', queue_name => 'test-chain')`,
    );
    await Promise.all([a.jobs.drain({ scheduled: true }), b.jobs.drain({ scheduled: true })]);
    const chain = await sqlQuery<{ n: number; keyed: number; started_at: Date; finished_at: Date }>(
      url,
      'SELECT n, keyed, started_at, finished_at FROM test_chain_runs ORDER BY started_at',
    );
    expect(chain.map((run) => run.n)).toEqual([1, 2, 3, 4]);
    // Each successor was due while its predecessor still worked, and waited for it (the named queue).
    for (let i = 1; i < chain.length; i++)
      expect(chain[i]!.started_at.getTime()).toBeGreaterThanOrEqual(chain[i - 1]!.finished_at.getTime());
    // Adding the successor under the key took the key from the running job: one keyed job at any time.
    expect(chain.every((run) => run.keyed === 1)).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('retries a failed job after a backoff, then it succeeds', async () => {
    const runtime = await open('a');
    await sqlQuery(url, `SELECT graphile_worker.add_job('test:flaky', json_build_object('n', 7), max_attempts => 3)`);
    await runtime.jobs.drain({ scheduled: true });
    const [failed, succeeded, ...more] = await runs(url);
    expect(more).toEqual([]);
    expect(failed).toMatchObject({ n: 7, attempt: 1, ok: false });
    expect(succeeded).toMatchObject({ n: 7, attempt: 2, ok: true });
    // graphile-worker waits exp(1) ≈ 2.7 s after a first failure; the database's clock enforces the floor.
    expect(succeeded!.ran_at.getTime() - failed!.ran_at.getTime()).toBeGreaterThan(2_000);
    const left = await sqlQuery(url, `SELECT id FROM graphile_worker.jobs WHERE task_identifier = 'test:flaky'`);
    expect(left).toEqual([]);
    await runtime.close();
  });
});

describe('the job queue across stops', () => {
  let url: string;

  beforeAll(async () => {
    url = await createTestDatabase();
    await sqlQuery(
      url,
      `CREATE TABLE test_job_runs (n int NOT NULL, attempt int NOT NULL, instance text NOT NULL, ok boolean NOT NULL,
                                   ran_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    );
  });

  const open = (instance: string): Promise<Runtime> => openTestRuntime(url, {}, { extraTasks: testTasks(instance) });
  const lockedJobs = () =>
    sqlQuery<{ task_identifier: string; attempts: number; max_attempts: number }>(
      url,
      'SELECT task_identifier, attempts, max_attempts FROM graphile_worker.jobs WHERE locked_at IS NOT NULL',
    );

  it('a graceful stop leaves no job locked: the job in progress finishes and is marked done', async () => {
    for (let round = 0; round < 3; round++) {
      gate = Promise.withResolvers<void>();
      const runtime = await open('stopping');
      await sqlQuery(url, `SELECT graphile_worker.add_job('test:gate', json_build_object('n', $1::int))`, [round]);
      await until(
        url,
        `SELECT locked_at IS NOT NULL AS ready FROM graphile_worker.jobs WHERE task_identifier = 'test:gate'`,
      );
      // The stop begins while the job runs; the job then finishes, as most do during a stop.
      const stopped = runtime.close();
      gate.resolve();
      await stopped;
      expect(await lockedJobs()).toEqual([]);
      expect(await sqlQuery(url, `SELECT id FROM graphile_worker.jobs WHERE task_identifier = 'test:gate'`)).toEqual(
        [],
      );
    }
    expect((await runs(url)).map((r) => r.n)).toEqual([0, 1, 2]);
    await sqlQuery(url, 'DELETE FROM test_job_runs');
  });

  it("releases at the next start the jobs of a worker that died, and clears the sealer's copy it left given up", async () => {
    const first = await open('first');
    await first.close();
    // What a worker killed mid-job leaves: a job taken (attempt 1), and the sealer's running job, which gave its
    // key to its successor and was marked given up when it did (graphile-worker's add_job).
    // (A statement's own CTE cannot see the row it adds: the id first, then the update.)
    const [taken] = await sqlQuery<{ id: string }>(
      url,
      `SELECT id::text FROM graphile_worker.add_job('test:record', json_build_object('n', 41))`,
    );
    await sqlQuery(
      url,
      `UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'pool-killed', attempts = 1
       WHERE id = $1`,
      [taken!.id],
    );
    const [sealer] = await sqlQuery<{ id: string }>(
      url,
      `SELECT id::text FROM graphile_worker.add_job('audit:seal', '{}'::json)`,
    );
    await sqlQuery(
      url,
      `UPDATE graphile_worker._private_jobs
       SET locked_at = now(), locked_by = 'pool-killed', attempts = max_attempts, key = NULL WHERE id = $1`,
      [sealer!.id],
    );
    expect(await lockedJobs()).toHaveLength(2);

    const second = await open('second');
    await second.jobs.drain({ timeoutMs: 10_000 });
    expect((await runs(url)).map((r) => [r.n, r.attempt, r.instance])).toEqual([[41, 2, 'second']]);
    await until(
      url,
      `SELECT count(*) = 0 AS ready FROM graphile_worker.jobs WHERE attempts >= max_attempts AND locked_at IS NULL`,
    );
    expect(await lockedJobs()).toEqual(
      // At most the sealer running now, on this instance.
      expect.not.arrayContaining([expect.objectContaining({ task_identifier: 'test:record' })]),
    );
    const health = await second.adminConsole.readHealth();
    expect(health.jobs).toMatchObject({ verdict: 'OK', figures: { failed: 0, lastGivenUp: null } });
    await second.close();
    await sqlQuery(url, 'DELETE FROM test_job_runs');
  });

  it('shows a periodic job that gave up, with its reason, until the next run of its task succeeds', async () => {
    const runtime = await open('a');
    const [given] = await sqlQuery<{ id: string }>(
      url,
      `SELECT id::text FROM graphile_worker.add_job('rate-limits:prune', '{}'::json, run_at => now() + interval '1 hour')`,
    );
    await sqlQuery(
      url,
      `UPDATE graphile_worker._private_jobs SET attempts = max_attempts, last_error = 'the database was away'
       WHERE id = $1`,
      [given!.id],
    );
    const before = await runtime.adminConsole.readHealth();
    expect(before.jobs).toMatchObject({
      verdict: 'ATTENTION',
      reason: 'jobsFailed',
      figures: { failed: 1, lastGivenUp: { task: 'rate-limits:prune', lastError: 'the database was away' } },
    });
    // Its next run, as the crontab adds it.
    await addJob(runtime.database.db, 'rate-limits:prune', {}, { jobKey: 'cron:rate-limits-prune' });
    await runtime.jobs.drain();
    await until(
      url,
      `SELECT count(*) = 0 AS ready FROM graphile_worker.jobs WHERE task_identifier = 'rate-limits:prune'`,
    );
    expect((await runtime.adminConsole.readHealth()).jobs).toMatchObject({ verdict: 'OK', reason: 'ok' });
    await runtime.close();
  });
});

describe('the crontab', () => {
  it('sweeps expired sessions every minute and prunes rate-limit hits every hour, each under a fixed id', () => {
    const items = parseCrontab(crontab);
    const byId = new Map(items.map((item) => [item.identifier, item]));
    expect(byId.get('sessions-sweep')).toMatchObject({ task: 'sessions:sweep' });
    expect(byId.get('rate-limits-prune')).toMatchObject({ task: 'rate-limits:prune' });
    // Every minute of every hour: the automatic logoff is never more than a minute late.
    const sweep = byId.get('sessions-sweep')!;
    for (const minute of [0, 1, 29, 59]) {
      for (const hour of [0, 13, 23]) {
        expect(sweep.match({ min: minute, hour, date: 15, month: 6, dow: 3 })).toBe(true);
      }
    }
  });
});
