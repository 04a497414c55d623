import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ADVISORY_LOCKS } from './advisory-locks.ts';

export type Database = NodePgDatabase;
/** A database handle or an open transaction: repositories accept either. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../drizzle');
/**
 * Any constant shared by every instance: the advisory lock that serialises start-up writes (migrations, the job
 * queue's schema, built-in rows, demo seeding) and restores into an empty database.
 */
const START_UP_LOCK_KEY = ADVISORY_LOCKS.startUp;

export function connectDatabase(url: string, options: { max?: number; idleSeconds?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    idleTimeoutMillis: (options.idleSeconds ?? 30) * 1000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzle(pool);
  // Closing twice, or after the pool was ended directly (a test taking the database away), is a no-op.
  return { db, pool, close: () => (pool.ended ? Promise.resolve() : pool.end()) };
}

/** The start-up lock, held on a connection of its own until `release()`; `db` runs on that connection. */
export interface StartUpLock {
  db: Database;
  release(): Promise<void>;
}

/**
 * Waits for, then holds, the start-up lock. Instances that start at the same time take turns: the first does the
 * start-up writes, the others then find them done. The lock is a session lock: it ends with its connection, so an
 * instance that dies while starting does not block the next one.
 */
export async function takeStartUpLock(url: string): Promise<StartUpLock> {
  const client = new pg.Client({ connectionString: url });
  // A lost connection (its lock is gone with it) must not crash the process; the start-up's next query fails.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [START_UP_LOCK_KEY]);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  let released: Promise<void> | undefined;
  return {
    db: drizzle(client),
    release() {
      released ??= (async () => {
        await client.query('SELECT pg_advisory_unlock($1)', [START_UP_LOCK_KEY]).catch(() => undefined);
        await client.end().catch(() => undefined);
      })();
      return released;
    },
  };
}

export interface MigrationOptions {
  /** Data work a migration leaves to the server (such as encrypting values written before), run right after. */
  afterMigrations?: (db: Database) => Promise<void>;
  migrationsFolder?: string;
}

/** Applies the checked-in SQL migrations, then `afterMigrations`, on the connection holding the start-up lock. */
export async function applyMigrations(lock: StartUpLock, options: MigrationOptions = {}): Promise<void> {
  await migrate(lock.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
  await options.afterMigrations?.(lock.db);
}

/** Takes the start-up lock, applies the migrations and releases it (commands that only migrate, restore). */
export async function migrateDatabase(url: string, options: MigrationOptions = {}): Promise<void> {
  const lock = await takeStartUpLock(url);
  try {
    await applyMigrations(lock, options);
  } finally {
    await lock.release();
  }
}

/** The time stamp (`when`) of this version's latest migration, as drizzle records it once applied. */
let latestMigration: number | undefined;
function latestMigrationMillis(): number {
  if (latestMigration === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    };
    latestMigration = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  return latestMigration;
}

/**
 * Readiness of the database for this version, in one round trip: reachable, and the latest migration this version
 * ships is applied (drizzle's ledger holds its time stamp). `migrations-missing` when another version's instance
 * (or a restore) left the schema behind this one's.
 */
export async function checkDatabaseReadiness(pool: pg.Pool): Promise<'ok' | 'unreachable' | 'migrations-missing'> {
  let latest: string | null;
  try {
    const result = await pool.query<{ latest: string | null }>(
      'SELECT max(created_at)::text AS latest FROM drizzle.__drizzle_migrations',
    );
    latest = result.rows[0]?.latest ?? null;
  } catch (error) {
    // No ledger at all (an empty database) is missing migrations; anything else is an unreachable database.
    return (error as { code?: string }).code === '42P01' ? 'migrations-missing' : 'unreachable';
  }
  return latest !== null && Number(latest) >= latestMigrationMillis() ? 'ok' : 'migrations-missing';
}

export async function isDatabaseReachable(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
