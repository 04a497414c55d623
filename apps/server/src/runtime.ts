import fs from 'node:fs';
import path from 'node:path';
import { systemScope } from './access/scope.ts';
import { JobQueue, type ExtraTask } from './jobs/queue.ts';
import { registeredTaskNames, type TaskHandlers } from './jobs/tasks.ts';
import type { Config } from './config.ts';
import {
  applyMigrations,
  connectDatabase,
  takeStartUpLock,
  type DatabaseHandle,
  type StartUpLock,
} from './db/client.ts';
import { ensureDemoAccounts } from './demo/demo-accounts.ts';
import { ensureDemoPractice } from './demo/demo-practice.ts';
import { ensureDemoClinicalHistory } from './demo/demo-clinical.ts';
import { ensureDemoSchedule } from './demo/demo-schedule.ts';
import { generateDataKeyEntry, Keyring, parseDataKeys } from './keys/keyring.ts';
import { encryptPlaintextAtStart } from './keys/reencrypt.ts';
import type { AppDependencies, DomainModule, Log, ModuleInstance, RuntimeCore } from './modules/domain-module.ts';
import { crontab, modules } from './modules/registry.ts';
import type { Services } from './modules/services.ts';
import { SettingsService } from './settings/settings.service.ts';
import {
  readOrCreateSecret,
  runningEmbeddedDatabaseUrl,
  startEmbeddedDatabase,
  type EmbeddedDatabase,
} from './db/embedded.ts';

/**
 * The opened server: every domain's services (`runtime.appointments`, declared by the domains' modules in
 * `Services`, decision 053) beside the database, the job queue and the keys.
 */
export interface Runtime extends Services {
  database: DatabaseHandle;
  /** The job queue; its worker runs unless the runtime was opened with `runJobs: false`. */
  jobs: JobQueue;
  secret: string;
  /** The data keys that encrypt clinical text (decision 016). */
  keyring: Keyring;
  /** Every service by name (what the GraphQL context and the routes receive). */
  services: Services;
  /** The domain modules, in the order they were created. */
  modules: readonly DomainModule[];
  /**
   * Stops the job queue (running jobs finish or are released), closes the pool, then stops the embedded
   * PostgreSQL if this runtime started one. Safe to call twice.
   */
  close(): Promise<void>;
}

/** What buildApp needs from a runtime. */
export function appDependencies(runtime: Runtime): AppDependencies {
  return { ...runtime.services, pool: runtime.database.pool, modules: runtime.modules };
}

export interface RuntimeOptions {
  /** Use the embedded PostgreSQL a running server started (commands run beside the server). */
  shareRunningServer?: boolean;
  /** false: install the queue's schema (so jobs can be added) but run no jobs here. Default true. */
  runJobs?: boolean;
  /** Tasks no module declares, for tests of the queue itself. */
  extraTasks?: Record<string, ExtraTask>;
  /**
   * Demo data written at start, under the start-up lock: the demo accounts, or the whole demo practice (the
   * accounts, about 40 patients, their schedule and clinical history; the server in demo mode). Default none.
   */
  seedDemo?: 'accounts' | 'practice';
}

/**
 * Opens the database the configuration names (DATABASE_URL, else the embedded server under DATA_DIR),
 * applies the migrations, builds every module's services (modules/registry.ts finds them) and starts the job
 * queue.
 *
 * Every write of the start-up (migrations and the data work after them, the job queue's schema, the modules'
 * work once jobs run (the sealer's first job), their start-up work (built-in note templates, search
 * re-indexing), demo data) happens while this instance holds the start-up lock, so instances started together on
 * one database take turns and each finds the others' work done (decision 014).
 */
export async function openRuntime(envConfig: Config, log: Log, options: RuntimeOptions = {}): Promise<Runtime> {
  let config = envConfig;
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl ?? (options.shareRunningServer ? runningEmbeddedDatabaseUrl(config.dataDir) : undefined);
  if (!url) {
    embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, port: config.embeddedPgPort, log });
    url = embedded.url;
  }
  let database: DatabaseHandle | undefined;
  let jobs: JobQueue | undefined;
  let settings: SettingsService | undefined;
  let startUpLock: StartUpLock | undefined;
  const instances: ModuleInstance[] = [];
  try {
    const keyring = new Keyring(config.dataEncryptionKeys ?? localDataKeys(config.dataDir));
    startUpLock = await takeStartUpLock(url);
    await applyMigrations(startUpLock, {
      afterMigrations: async (db) => {
        const rows = await encryptPlaintextAtStart(db, keyring, log);
        if (Object.values(rows).some((n) => n > 0)) {
          await systemScope().audit(db, 'DATA_REENCRYPTED', {
            reason: 'plain text written before encryption',
            keyId: keyring.currentKeyId,
            rows,
          });
        }
        // Then each module's (stored text the current text rule refuses, made inert once per version of the
        // rule: decision 022).
        for (const module of modules) await module.afterMigrations?.(db, { keyring, log });
      },
    });
    database = connectDatabase(url, { max: config.databasePoolMax, idleSeconds: config.databasePoolIdleSeconds });
    // The practice's settings from the database, followed live: every service reads config.settings.current() at
    // call time, so an administrator's change applies at once (decision 032).
    settings = await SettingsService.open({
      db: database.db,
      defaults: config.practiceDefaults,
      log,
      connection: database.pool.options,
    });
    config = { ...config, settings };
    const secret = config.authSecret ?? localSecret(config.dataDir);
    const core: RuntimeCore = { url, pool: database.pool, secret, keyring, log };
    // The services, module by module: each module's `create` sees the services of the modules before it.
    const services = { config, db: database.db, settings } as Services;
    for (const module of modules) {
      const instance = module.create?.(whileCreating(module, services, core)) ?? {};
      instances.push(instance);
      for (const name of Object.keys(instance.services ?? {}))
        if (name in services) throw new Error(`module ${module.name} makes ${name}, which another module made`);
      Object.assign(services, instance.services);
    }
    const handlers = Object.assign({}, ...instances.map((instance) => instance.tasks ?? {})) as Partial<TaskHandlers>;
    const unhandled = registeredTaskNames().filter((name) => !(name in handlers));
    if (unhandled.length > 0) throw new Error(`tasks without a handler: ${unhandled.join(', ')}`);
    jobs = new JobQueue({
      url,
      log,
      idleSeconds: config.databasePoolIdleSeconds,
      handlers,
      crontab: [crontab, ...instances.flatMap((instance) => instance.crontab ?? [])].join('\n'),
      ...(options.extraTasks ? { extraTasks: options.extraTasks } : {}),
    });
    if (options.runJobs === false) {
      await jobs.installSchema();
    } else {
      await jobs.start();
      // Each module's work once jobs run: mail waiting for a delivery job, backups whose process died while this
      // server was down (failed, not running), the audit sealer's first job.
      for (const instance of instances) await instance.jobsStarted?.();
    }
    // Each module's start-up work: built-in note templates, search re-indexing under the current key.
    for (const instance of instances) await instance.startUp?.();
    if (options.seedDemo) {
      const { auth } = services;
      await ensureDemoAccounts(auth, database.db);
      if (options.seedDemo === 'practice') {
        await ensureDemoPractice(database.db, keyring);
        await ensureDemoSchedule(database.db, keyring, config.settings.current().timeZone);
        await ensureDemoClinicalHistory(database.db, keyring, secret, config.settings.current().timeZone);
      }
    }
    await startUpLock.release();
    const opened = database;
    const openedSettings = settings;
    const queue = jobs;
    let closing: Promise<void> | undefined;
    return {
      ...services,
      database: opened,
      jobs: queue,
      secret,
      keyring,
      services,
      modules,
      close() {
        closing ??= (async () => {
          await queue.stop();
          for (const instance of instances) await instance.close?.();
          await openedSettings.close();
          await opened.close();
          await embedded?.stop();
        })();
        return closing;
      },
    };
  } catch (error) {
    await startUpLock?.release();
    await jobs?.stop();
    for (const instance of instances) await instance.close?.();
    await settings?.close();
    await database?.close();
    await embedded?.stop();
    throw error;
  }
}

/**
 * What a module's `create` receives: the core and the services so far. A service of a module not yet created
 * (one missing from `after`) throws at once instead of being undefined.
 */
function whileCreating(module: DomainModule, services: Services, core: RuntimeCore): Services & RuntimeCore {
  const view = Object.assign(Object.create(null) as object, core);
  return new Proxy(view, {
    get(target, key) {
      if (typeof key !== 'string') return undefined;
      if (key in services) return services[key as keyof Services];
      if (key in target) return (target as Record<string, unknown>)[key];
      throw new Error(`module ${module.name} uses ${key} before any module made it: name its module in "after"`);
    },
  }) as Services & RuntimeCore;
}

/** Without AUTH_SECRET (outside production) a random secret is kept in DATA_DIR, readable only by its owner. */
function localSecret(dataDir: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return readOrCreateSecret(path.join(dataDir, 'auth-secret'));
}

/**
 * Without DATA_ENCRYPTION_KEY (outside production) the data keys are kept in DATA_DIR/data-keys, readable only by
 * its owner, in the variable's format (one `id:key` a line, the current key first), so an operator can rotate them
 * there. Losing the file loses the encrypted data: back it up with the database (decision 016).
 */
function localDataKeys(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'data-keys');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = `${DATA_KEYS_FILE_HEADER}${generateDataKeyEntry('k1')}\n`;
    // 'wx': two instances starting at once must not each write a different key; the second reads the first's.
    try {
      fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch {
      text = fs.readFileSync(file, 'utf8');
    }
  }
  const parsed = parseDataKeys(text);
  if ('problems' in parsed) throw new Error(`${file}: ${parsed.problems.join('; ')}`);
  return parsed.keys;
}

const DATA_KEYS_FILE_HEADER = `# Data encryption keys (DATA_ENCRYPTION_KEY was not set). One id:key a line; the first encrypts, every one
# decrypts. Rotate: add a new line at the top (id:$(openssl rand -base64 32)), restart, run npm run keys:rotate.
# Losing this file loses the encrypted clinical text: back it up, apart from the database backups.
`;
