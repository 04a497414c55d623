import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { taskPayloadSchema, type TaskName, type TaskPayload } from './tasks.ts';

export interface JobOptions {
  /** Run this many milliseconds from now, by the database's clock (every instance agrees on it). */
  delayMs?: number;
  /** Run at this time (default: now). */
  runAt?: Date;
  /**
   * At most one pending job per key. Adding again with the key replaces the pending job (`replace`, the
   * default, also moves its time), keeps its time (`preserve_run_at`), or leaves it alone (`unsafe_dedupe`).
   * If the keyed job is already running, the new one is added beside it (give both a `queueName` so that
   * they run one after the other). Prefix keys with the task name.
   */
  jobKey?: string;
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  /** Jobs that share a queue name run one at a time, in order. Use few, fixed names. */
  queueName?: string;
  /** Attempts before the job is given up (default 25; retries wait exp(attempt) seconds). */
  maxAttempts?: number;
  /** Lower runs first (default 0). */
  priority?: number;
}

/**
 * Adds a job with graphile-worker's own SQL function. Given a transaction, the job exists exactly when that
 * transaction commits, and the workers hear of it at the commit. The payload is checked against the task's
 * schema here, so a wrong payload fails the change that adds it rather than the job later. Answers the job id
 * (null only in graphile-worker's rare job-key race, issue #580).
 */
export async function addJob<N extends TaskName>(
  executor: Executor,
  name: N,
  payload: TaskPayload<N>,
  options: JobOptions = {},
): Promise<string | null> {
  const checked: unknown = taskPayloadSchema(name).parse(payload);
  const args: SQL[] = [sql`identifier => ${name}`, sql`payload => ${JSON.stringify(checked)}::json`];
  if (options.delayMs !== undefined && options.runAt !== undefined)
    throw new Error('addJob: give delayMs or runAt, not both');
  if (options.delayMs !== undefined)
    args.push(sql`run_at => now() + ${Math.max(0, options.delayMs)} * interval '1 millisecond'`);
  if (options.runAt !== undefined) args.push(sql`run_at => ${options.runAt.toISOString()}::timestamptz`);
  if (options.jobKey !== undefined) args.push(sql`job_key => ${options.jobKey}`);
  if (options.jobKeyMode !== undefined) args.push(sql`job_key_mode => ${options.jobKeyMode}`);
  if (options.queueName !== undefined) args.push(sql`queue_name => ${options.queueName}`);
  if (options.maxAttempts !== undefined) args.push(sql`max_attempts => ${options.maxAttempts}::int`);
  if (options.priority !== undefined) args.push(sql`priority => ${options.priority}::int`);
  const result = await executor.execute<{ id: string | null }>(
    sql`SELECT id::text AS id FROM graphile_worker.add_job(${sql.join(args, sql`, `)})`,
  );
  return result.rows[0]?.id ?? null;
}
