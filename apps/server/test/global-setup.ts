import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../src/db/client.ts';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    databaseKind: 'embedded' | 'external';
    /** A database with the migrations and the job queue's schema applied, copied by `createTestDatabase`. */
    templateDatabase: string;
  }
}

let embedded: EmbeddedDatabase | undefined;
let dataDir: string | undefined;
let adminUrl: string | undefined;
let templateName: string | undefined;

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The server tests run on a real PostgreSQL: TEST_DATABASE_URL when given (the machine's PostgreSQL 15),
 * otherwise an embedded PostgreSQL 18 started here. Each test file creates its own database in it, most of them
 * as a copy of one template migrated here once (CREATE DATABASE … TEMPLATE copies files instead of running
 * thirty migrations and the job queue's schema again in every file; decision 055).
 */
export async function setup(project: TestProject): Promise<void> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    adminUrl = external;
    project.provide('databaseKind', 'external');
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-test-pg-'));
    fs.chmodSync(dataDir, 0o711);
    embedded = await startEmbeddedDatabase({
      dataDir,
      // Two test files at once, each with runtimes holding pools, job queues and listeners (the settings listener
      // added one per runtime): PostgreSQL's default of 100 was reached ("sorry, too many clients already").
      maxConnections: 300,
      log: { info: () => undefined, warn: console.warn, error: console.error } as never,
    });
    adminUrl = embedded.url;
    project.provide('databaseKind', 'embedded');
  }
  project.provide('adminDatabaseUrl', adminUrl);

  // A name of its own per run: two runs may share the machine's PostgreSQL (the two passes run side by side).
  templateName = `t_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${templateName}`);
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${templateName}`;
  await migrateDatabase(templateUrl.toString());
  // The job queue's own schema too, which every runtime's start would otherwise install in each new database.
  await runMigrations({
    connectionString: templateUrl.toString(),
    logger: new Logger(() => (level, message) => {
      if (level === 'error') console.error(`job queue: ${message}`);
    }),
  });
  // Only a template may be copied while nobody else is connected; marking it so also keeps anyone from using it.
  await adminQuery(adminUrl, `ALTER DATABASE ${templateName} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  project.provide('templateDatabase', templateName);
}

export async function teardown(): Promise<void> {
  if (adminUrl && templateName && !embedded) {
    // On the machine's PostgreSQL the template would outlive the run: a template cannot be dropped until unmarked.
    await adminQuery(adminUrl, `ALTER DATABASE ${templateName} WITH IS_TEMPLATE false`);
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
  }
  await embedded?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
