import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Database } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { TaskHandlers, TaskPayloadSchemas } from '../jobs/tasks.ts';
import type { Services } from './services.ts';

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** What the runtime opens before any module: a module's `create` reads it beside the services built so far. */
export interface RuntimeCore {
  /** The database's URL (the backup copies it with its own connection). */
  url: string;
  pool: pg.Pool;
  secret: string;
  /** The data keys that encrypt clinical text (decision 016). */
  keyring: Keyring;
  log: Log;
}

/** What buildApp needs: every service, the pool and the modules (their routes). */
export interface AppDependencies extends Services {
  pool: pg.Pool;
  modules: readonly DomainModule[];
}

/** What a module's `create` answers: its services, and what it runs on the queue and at start. */
export interface ModuleInstance {
  /** Added to `Services` (declare them there by declaration merging). */
  services?: Partial<Services>;
  /** The handlers of the tasks the module declares in `taskPayloads`. */
  tasks?: Partial<TaskHandlers>;
  /** Crontab lines that depend on the configuration (the scheduled backup). */
  crontab?: readonly string[];
  /** Once the job queue runs (not in commands that run no jobs), under the start-up lock. */
  jobsStarted?: () => Promise<unknown>;
  /** Start-up work under the start-up lock, after the queue started (built-in templates, re-indexing). */
  startUp?: () => Promise<void>;
  /** When the runtime closes, after the queue stopped and before the pool closes. */
  close?: () => void | Promise<void>;
}

/**
 * A domain: one folder with one `<domain>.module.ts` whose default export is this object. The runtime finds
 * every `src/<folder>/<folder>.module.ts` at start (modules/registry.ts), so adding a domain edits no list.
 * Its GraphQL types (`*.graphql.ts`) are found the same way by graphql/schema.ts.
 */
export interface DomainModule {
  /** The folder's name. */
  name: string;
  /** Modules whose services `create` uses: they are created first. */
  after?: readonly string[];
  /** The payload schemas of the module's tasks (also declared in `TaskSchemas`, jobs/tasks.ts). */
  taskPayloads?: TaskPayloadSchemas;
  /** Tasks that add themselves again each time they run (the audit sealer). */
  selfReschedulingTasks?: readonly string[];
  /** Crontab lines (graphile-worker's format, UTC; give each a fixed `id`). */
  crontab?: readonly string[];
  /** Work right after the migrations, under the start-up lock, before any service exists. */
  afterMigrations?: (db: Database, core: Pick<RuntimeCore, 'keyring' | 'log'>) => Promise<unknown>;
  /** Builds the module's services from the runtime's core and the services of the modules it comes after. */
  create?: (runtime: Services & RuntimeCore) => ModuleInstance;
  /** Registers the module's HTTP routes (after the GraphQL endpoint, before the web app). */
  routes?: (app: FastifyInstance, deps: AppDependencies) => void | Promise<void>;
}

/** Gives a module its type (and nothing else): `export default defineModule({ ... })`. */
export function defineModule(module: DomainModule): DomainModule {
  return module;
}
