import { EventEmitter, once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import {
  Logger,
  run,
  runMigrations,
  type JobHelpers,
  type Runner,
  type TaskList,
  type WorkerEvents,
} from 'graphile-worker';
import pg from 'pg';
import { selfReschedulingTasks, taskPayloadSchema, type TaskHandlers } from './tasks.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * How often an idle worker looks for due jobs. A job due now is announced at its commit (LISTEN/NOTIFY) and
 * starts at once; this bounds how late a job scheduled for later (a retry, `delayMs`) starts, so a task that
 * reschedules itself a few hundred milliseconds ahead (the audit sealer) keeps its pace.
 */
export const POLL_INTERVAL_MS = 1000;
/** Jobs one instance runs at the same time. Each idle worker polls, so more workers means more polling. */
export const JOB_CONCURRENCY = 2;
/**
 * At shutdown, running jobs get this long to finish. Their `helpers.abortSignal` fires after five seconds
 * (graphile-worker's default) so that a task that honours it can stop early; whatever still runs then is
 * failed, which releases it for a retry on this or another instance.
 */
const STOP_TIMEOUT_MS = 10_000;
/**
 * With the pool's id as second key: the advisory lock each running worker pool holds on a connection of its own
 * for as long as it runs. A pool whose lock is free is gone, and the jobs it left locked are released at the next
 * start (graphile-worker's `force_unlock_workers`) instead of after its four-hour sweep.
 */
const WORKER_PRESENCE_LOCK = ADVISORY_LOCK_CLASSES.workerPresence;
/** A periodic task's given-up jobs are cleared at its first success, then at most this often. */
const GIVEN_UP_CLEAR_INTERVAL_MS = 60_000;

/** A handler for a task no module declares (tests add their own); it checks its own payload. */
export type ExtraTask = (payload: unknown, helpers: JobHelpers) => Promise<void>;

export interface JobQueueOptions {
  url: string;
  log: Log;
  /** How long a connection of the queue's pool may sit unused before it is closed (default 30). */
  idleSeconds?: number;
  /** Every registered task's handler, from the modules (decision 053). */
  handlers: Partial<TaskHandlers>;
  crontab: string;
  extraTasks?: Record<string, ExtraTask>;
}

/** The tasks of a crontab's lines (minute hour day month weekday task ?options). */
function crontabTasks(crontab: string): string[] {
  return crontab
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/)[5])
    .filter((task): task is string => task !== undefined);
}

/**
 * The job queue: graphile-worker on the application's database, in its own schema (`graphile_worker`, created
 * and upgraded by graphile-worker's own migrations). Every instance runs a worker pool; a job is locked by one
 * of them (`FOR UPDATE SKIP LOCKED`), so each job runs once however many instances share the database, and a
 * job whose time came while no instance ran starts when one is back.
 */
export class JobQueue {
  readonly #pool: pg.Pool;
  readonly #log: Log;
  readonly #taskList: TaskList;
  readonly #crontab: string;
  readonly #events: WorkerEvents;
  readonly #url: string;
  /** Tasks whose next run redoes the work of one that gave up: the crontab's and the self-rescheduling ones. */
  readonly #periodicTasks: ReadonlySet<string>;
  #runner: Runner | null = null;
  #closed: Promise<void> | null = null;
  /** The connection holding this worker pool's presence lock, while it runs. */
  #presence: pg.Client | null = null;
  /** Clean-ups of given-up jobs under way; stop() waits for them before closing the pool. */
  readonly #tidying = new Set<Promise<void>>();
  /** When each periodic task's given-up jobs were last cleared here. */
  readonly #clearedAt = new Map<string, number>();

  constructor(options: JobQueueOptions) {
    this.#log = options.log;
    // Its own small pool: the worker holds one connection for LISTEN and polls with the others, and should not
    // wait behind requests for the application's connections (handlers use the application's pool).
    this.#pool = new pg.Pool({
      connectionString: options.url,
      max: JOB_CONCURRENCY + 2,
      idleTimeoutMillis: (options.idleSeconds ?? 30) * 1000,
    });
    // A lost connection must not crash the process: pg drops an idle one from the pool, and raises the error of
    // a checked-out one at its next query (graphile-worker then retries).
    this.#pool.on('error', (error) => this.#log.warn({ err: error }, 'job queue: an idle connection failed'));
    this.#pool.on('connect', (client) =>
      client.on('error', (error) => this.#log.warn({ err: error }, 'job queue: a connection failed')),
    );
    this.#taskList = { ...checkedTaskList(options.handlers), ...options.extraTasks };
    this.#crontab = options.crontab;
    this.#url = options.url;
    this.#periodicTasks = new Set([...crontabTasks(options.crontab), ...selfReschedulingTasks()]);
    this.#events = new EventEmitter() as WorkerEvents;
    this.#events.on('job:success', ({ job }) => {
      if (!this.#periodicTasks.has(job.task_identifier) || this.#closed) return;
      // The sealer succeeds four times a second: once a minute per task is soon enough.
      const now = Date.now();
      if (now - (this.#clearedAt.get(job.task_identifier) ?? -Infinity) < GIVEN_UP_CLEAR_INTERVAL_MS) return;
      this.#clearedAt.set(job.task_identifier, now);
      const tidying = this.#clearGivenUp(job.task_identifier).finally(() => this.#tidying.delete(tidying));
      this.#tidying.add(tidying);
    });
  }

  /** Installs or upgrades the queue's schema without running jobs (commands that only add jobs). */
  async installSchema(): Promise<void> {
    await runMigrations({ pgPool: this.#pool, logger: workerLogger(this.#log) });
  }

  /**
   * Installs or upgrades the schema, releases the jobs of worker pools that are gone, then runs jobs and the
   * crontab until stop(). The runtime calls it under the start-up lock, so no other instance releases jobs while
   * this pool starts and has not taken its presence lock yet.
   */
  async start(): Promise<void> {
    if (this.#runner) return;
    await this.installSchema();
    await this.#releaseJobsOfGoneWorkers();
    let poolId: string | undefined;
    const onPool = ({ workerPool }: { workerPool: { id: string } }) => {
      poolId = workerPool.id;
    };
    this.#events.once('pool:create', onPool);
    const runner = await run({
      pgPool: this.#pool,
      taskList: this.#taskList,
      crontab: this.#crontab,
      concurrency: JOB_CONCURRENCY,
      pollInterval: POLL_INTERVAL_MS,
      // The server owns the process's signals and stops the queue itself (runtime.close()).
      noHandleSignals: true,
      logger: workerLogger(this.#log),
      events: this.#events,
      // Completions and failures go through graphile-worker's batchers (within the same tick), which its
      // shutdown waits for: unbatched, the last job's completion could still be on its way when stop() closed
      // the pool, and the job stayed locked by a worker that no longer ran.
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });
    runner.promise.catch((error: unknown) => this.#log.error({ err: error }, 'job queue stopped with an error'));
    this.#runner = runner;
    if (poolId) this.#presence = await this.#holdPresence(poolId);
    else this.#log.warn('job queue: no worker pool id; its jobs may be released by the next instance that starts');
  }

  /** Takes the pool's presence lock on a connection of its own, kept until stop(). */
  async #holdPresence(poolId: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.#url });
    // Losing it loses the lock: another instance starting then may release this pool's jobs, which run again
    // (handlers are safe to run twice, decision 014).
    client.on('error', (error) => this.#log.warn({ err: error }, 'job queue: the presence connection failed'));
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [WORKER_PRESENCE_LOCK, poolId]);
    return client;
  }

  /**
   * Jobs (and queues) locked by a worker pool whose presence lock is free were left by a process that died or was
   * stopped before it could let them go: graphile-worker's `force_unlock_workers` makes them available again, so
   * they are retried now rather than after four hours.
   */
  async #releaseJobsOfGoneWorkers(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      const { rows } = await client.query<{ locked_by: string }>(
        `SELECT locked_by FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL
         UNION SELECT locked_by FROM graphile_worker._private_job_queues WHERE locked_by IS NOT NULL`,
      );
      const gone: string[] = [];
      for (const { locked_by: id } of rows) {
        const probe = await client.query<{ free: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS free', [
          WORKER_PRESENCE_LOCK,
          id,
        ]);
        if (!probe.rows[0]?.free) continue;
        gone.push(id);
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [WORKER_PRESENCE_LOCK, id]);
      }
      if (gone.length === 0) return;
      await client.query('SELECT graphile_worker.force_unlock_workers($1::text[])', [gone]);
      this.#log.warn({ workers: gone.length }, 'job queue: released the jobs of stopped workers for a retry');
    } finally {
      client.release();
    }
  }

  /**
   * A periodic task just succeeded: its jobs that gave up are cleared, since this run redid their work.
   * (The sealer's running job is marked given up when it adds its successor, and a crontab job that gave up loses
   * its key when the next one is added: left alone, either would keep the health screen at Attention for ever.)
   */
  async #clearGivenUp(task: string): Promise<void> {
    try {
      await this.#pool.query(
        `DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
         WHERE j.task_id = t.id AND t.identifier = $1 AND j.attempts >= j.max_attempts AND j.locked_at IS NULL`,
        [task],
      );
    } catch (error) {
      this.#log.warn({ err: error, task }, 'job queue: could not clear the given-up jobs of a periodic task');
    }
  }

  /**
   * Stops taking jobs, lets running ones finish (or fails them after STOP_TIMEOUT_MS, so they are retried),
   * and closes the queue's connections. Safe to call twice.
   */
  stop(): Promise<void> {
    this.#closed ??= this.#stop();
    return this.#closed;
  }

  async #stop(): Promise<void> {
    const runner = this.#runner;
    this.#runner = null;
    if (runner) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS);
      });
      const outcome = await Promise.race([
        runner.stop().then(
          () => 'stopped' as const,
          (error: unknown) => {
            this.#log.error({ err: error }, 'job queue: stopping failed');
            return 'stopped' as const;
          },
        ),
        late,
      ]);
      clearTimeout(timer);
      if (outcome === 'late') {
        this.#log.warn('job queue: jobs still running at shutdown are released for a retry');
        await runner.kill();
      }
    }
    await Promise.allSettled([...this.#tidying]);
    await this.#presence?.end().catch(() => undefined);
    this.#presence = null;
    await this.#pool.end();
  }

  /**
   * Resolves once no job is running and none is due, on this instance or any other sharing the database.
   * Jobs waiting for a retry or for a later time count only with `scheduled: true`. Tasks that reschedule
   * themselves forever (the audit sealer) never count. For tests.
   */
  async drain(options: { scheduled?: boolean; timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.#pool.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM graphile_worker.jobs
         WHERE (locked_at IS NOT NULL OR (($1 OR run_at <= now()) AND attempts < max_attempts))
           AND task_identifier <> ALL($2::text[])`,
        [options.scheduled === true, selfReschedulingTasks()],
      );
      if ((rows[0]?.pending ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error(`job queue: jobs still pending after ${timeoutMs} ms`);
      // The next job finished here, or a short pause when another instance is doing the work.
      await once(this.#events, 'job:complete', { signal: AbortSignal.timeout(100) }).catch(() => undefined);
    }
  }
}

/** Each handler gets its payload checked against the task's schema first: jobs can be added by plain SQL too. */
function checkedTaskList(handlers: Partial<TaskHandlers>): TaskList {
  const list: TaskList = {};
  for (const [name, handler] of Object.entries(handlers) as [
    string,
    (payload: unknown, helpers: JobHelpers) => Promise<void>,
  ][]) {
    const schema = taskPayloadSchema(name);
    list[name] = (payload, helpers) => handler(schema.parse(payload), helpers);
  }
  return list;
}

/**
 * graphile-worker's messages into the server's log: warnings and errors only. Its info lines (one per job
 * done) would drown the log, and its metadata (jobs with their payloads) stays out of it.
 */
function workerLogger(log: Log): Logger {
  return new Logger((scope) => (level, message) => {
    const context = {
      ...(scope.taskIdentifier ? { task: scope.taskIdentifier } : {}),
      ...(scope.jobId ? { jobId: scope.jobId } : {}),
    };
    if (level === 'error') log.error(context, `job queue: ${message}`);
    else if (level === 'warning') log.warn(context, `job queue: ${message}`);
  });
}
