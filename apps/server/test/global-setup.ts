import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    databaseKind: 'embedded' | 'external';
  }
}

let embedded: EmbeddedDatabase | undefined;
let dataDir: string | undefined;

/**
 * The server tests run on a real PostgreSQL: TEST_DATABASE_URL when given (the machine's PostgreSQL 15),
 * otherwise an embedded PostgreSQL 18 started here. Each test file creates its own database in it.
 */
export async function setup(project: TestProject): Promise<void> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    project.provide('adminDatabaseUrl', external);
    project.provide('databaseKind', 'external');
    return;
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-test-pg-'));
  fs.chmodSync(dataDir, 0o711);
  embedded = await startEmbeddedDatabase({
    dataDir,
    // Two test files at once, each with runtimes holding pools, job queues and listeners (the settings listener
    // added one per runtime): PostgreSQL's default of 100 was reached ("sorry, too many clients already").
    maxConnections: 300,
    log: { info: () => undefined, warn: console.warn, error: console.error } as never,
  });
  project.provide('adminDatabaseUrl', embedded.url);
  project.provide('databaseKind', 'embedded');
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
