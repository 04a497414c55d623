import type { JobHelpers } from 'graphile-worker';
import { z } from 'zod';

/*
 * The job queue's registry of tasks. jobs/ knows no domain: each domain declares its tasks in its module
 * (`<domain>/<domain>.module.ts`, decision 053): the payload schemas (`taskPayloads`), their handlers and its
 * crontab lines. The payload types reach `addJob` by declaration merging: a domain adds its schemas to
 * `TaskSchemas` below,
 *
 *   declare module '../jobs/tasks.ts' { interface TaskSchemas extends AppointmentTaskSchemas {} }
 *
 * and the module registry registers the same schemas here when it loads the module.
 *
 * Adding a task (appointment reminders, waitlist offers, alerts did):
 *   1. Add its payload schema to the domain's `taskPayloads`. Payloads hold ids, never health data or
 *      addresses: they sit in graphile_worker's tables and may appear in logs. The handler reads the rest from
 *      the database.
 *   2. Answer its handler from the module's `create` (`tasks`). Throwing fails the attempt and the queue retries
 *      it with backoff (exp(attempt) seconds: 3 s, 7 s, 20 s, ...) up to its max attempts. A handler may run
 *      twice (an instance can die after the work and before the job is marked done): make it idempotent.
 *   3. Create jobs with `addJob(tx, name, payload, options)` inside the transaction that causes them (the job
 *      exists exactly when that change commits), or add a line to the module's `crontab` for work on a
 *      schedule. A task that must run one at a time uses a `queueName`; one that must be pending only once uses
 *      a `jobKey`.
 */

/**
 * Every task's payload schema, by task name. Empty here: each domain adds its own by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface TaskSchemas {}

export type TaskName = Extract<keyof TaskSchemas, string>;
type SchemaOf<N extends TaskName> = TaskSchemas[N] extends z.ZodType ? TaskSchemas[N] : never;
/** What `addJob` accepts for a task. */
export type TaskPayload<N extends TaskName> = z.input<SchemaOf<N>>;
/** What a task's handler receives, after the payload was checked against its schema. */
export type ParsedTaskPayload<N extends TaskName> = z.output<SchemaOf<N>>;

export type TaskHandler<N extends TaskName> = (payload: ParsedTaskPayload<N>, helpers: JobHelpers) => Promise<void>;
export type TaskHandlers = { [N in TaskName]: TaskHandler<N> };

/** A domain's payload schemas, as its module declares them. */
export type TaskPayloadSchemas = Record<string, z.ZodType<Record<string, unknown>>>;

/** What a crontab job receives: graphile-worker adds `_cron: { ts, backfilled }`. */
export const CronPayloadSchema = z.looseObject({});

const registeredSchemas = new Map<string, z.ZodType>();
const selfRescheduling = new Set<string>();

/**
 * Registers a domain's payload schemas (the module registry does, as it loads each module). A task name
 * belongs to one domain: registering another schema under a taken name throws.
 */
export function registerTaskPayloads(
  schemas: TaskPayloadSchemas,
  options: { selfRescheduling?: readonly string[] } = {},
): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const known = registeredSchemas.get(name);
    if (known && known !== schema) throw new Error(`task ${name} is declared by two modules`);
    registeredSchemas.set(name, schema);
  }
  for (const name of options.selfRescheduling ?? []) selfRescheduling.add(name);
}

/** The payload schema of a registered task; throws for a name no module declared. */
export function taskPayloadSchema(name: string): z.ZodType {
  const schema = registeredSchemas.get(name);
  if (!schema) throw new Error(`unknown task ${name}: no module declares it`);
  return schema;
}

/** The names of every registered task. */
export function registeredTaskNames(): string[] {
  return [...registeredSchemas.keys()];
}

/** Tasks that add themselves again each time they run: always pending, so `drain()` does not wait for them. */
export function selfReschedulingTasks(): readonly string[] {
  return [...selfRescheduling];
}
