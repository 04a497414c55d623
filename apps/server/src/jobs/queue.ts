import { EventEmitter, once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import {
  Logger,
  run,
  runMigrations,
  type JobHelpers,
  type Runner,
  type Task,
  type TaskList,
  type WorkerEvents,
} from 'graphile-worker';
import pg from 'pg';
import type { z } from 'zod';
import {
  SELF_RESCHEDULING_TASKS,
  taskPayloads,
  type ParsedTaskPayload,
  type TaskHandlers,
  type TaskName,
} from './tasks.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * How often an idle worker looks for due jobs. A job due now is announced at its commit (LISTEN/NOTIFY) and
 * starts at once; this bounds how late a job scheduled for later (a retry, `delayMs`) starts, so a task that
 * reschedules itself a few hundred milliseconds ahead (the audit sealer) keeps its pace.
 */
export const POLL_INTERVAL_MS = 250;
/** Jobs one instance runs at the same time. Each idle worker polls, so more workers means more polling. */
export const JOB_CONCURRENCY = 2;
/**
 * At shutdown, running jobs get this long to finish. Their `helpers.abortSignal` fires after five seconds
 * (graphile-worker's default) so that a task that honours it can stop early; whatever still runs then is
 * failed, which releases it for a retry on this or another instance.
 */
const STOP_TIMEOUT_MS = 10_000;

/** A handler for a task outside `tasks.ts` (tests add their own); it checks its own payload. */
export type ExtraTask = (payload: unknown, helpers: JobHelpers) => Promise<void>;

export interface JobQueueOptions {
  url: string;
  log: Log;
  handlers: TaskHandlers;
  crontab: string;
  extraTasks?: Record<string, ExtraTask>;
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
  #runner: Runner | null = null;
  #closed: Promise<void> | null = null;

  constructor(options: JobQueueOptions) {
    this.#log = options.log;
    // Its own small pool: the worker holds one connection for LISTEN and polls with the others, and should not
    // wait behind requests for the application's connections (handlers use the application's pool).
    this.#pool = new pg.Pool({ connectionString: options.url, max: JOB_CONCURRENCY + 2, idleTimeoutMillis: 30_000 });
    // A lost connection must not crash the process: pg drops an idle one from the pool, and raises the error of
    // a checked-out one at its next query (graphile-worker then retries).
    this.#pool.on('error', (error) => this.#log.warn({ err: error }, 'job queue: an idle connection failed'));
    this.#pool.on('connect', (client) =>
      client.on('error', (error) => this.#log.warn({ err: error }, 'job queue: a connection failed')),
    );
    this.#taskList = { ...checkedTaskList(options.handlers), ...options.extraTasks };
    this.#crontab = options.crontab;
    this.#events = new EventEmitter() as WorkerEvents;
  }

  /** Installs or upgrades the queue's schema without running jobs (commands that only add jobs). */
  async installSchema(): Promise<void> {
    await runMigrations({ pgPool: this.#pool, logger: workerLogger(this.#log) });
  }

  /** Installs or upgrades the schema, then runs jobs and the crontab until stop(). */
  async start(): Promise<void> {
    if (this.#runner) return;
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
    });
    runner.promise.catch((error: unknown) => this.#log.error({ err: error }, 'job queue stopped with an error'));
    this.#runner = runner;
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
        [options.scheduled === true, SELF_RESCHEDULING_TASKS],
      );
      if ((rows[0]?.pending ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error(`job queue: jobs still pending after ${timeoutMs} ms`);
      // The next job finished here, or a short pause when another instance is doing the work.
      await once(this.#events, 'job:complete', { signal: AbortSignal.timeout(100) }).catch(() => undefined);
    }
  }
}

/** Each handler gets its payload checked against the task's schema first: jobs can be added by plain SQL too. */
function checkedTaskList(handlers: TaskHandlers): TaskList {
  const list: TaskList = {};
  for (const name of Object.keys(handlers) as TaskName[]) list[name] = checkedTask(name, handlers);
  return list;
}

const schemas: { [N in TaskName]: z.ZodType<ParsedTaskPayload<N>> } = taskPayloads;

function checkedTask<N extends TaskName>(name: N, handlers: TaskHandlers): Task {
  const handler = handlers[name];
  const schema = schemas[name];
  return (payload, helpers) => handler(schema.parse(payload), helpers);
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
