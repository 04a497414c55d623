import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import type { Role } from '@telehealth/shared';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { appDependencies, openRuntime, type Runtime, type RuntimeOptions } from '../src/runtime.ts';
import { createAccountWithPassword } from '../src/users/accounts.ts';
import { TEST_BUDGET_MS } from './budget.ts';
import { afterFile, afterOpener } from './file-cleanup.ts';

export const silentLog = { info: () => undefined, warn: () => undefined, error: console.error } as never;

/** The data key every test app uses unless a test sets DATA_ENCRYPTION_KEY itself (32 fixed bytes, id "test"). */
export const TEST_DATA_KEY = `test:${Buffer.alloc(32, 7).toString('base64')}`;

/**
 * Creates a fresh database for one test file and drops it when the file is done: empty, or with `migrated` a copy
 * of the run's template, which has the migrations and the job queue's schema applied (test/global-setup.ts). A
 * runtime opened on the copy finds them done and does the rest of its start-up as on any database.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(
    options.migrated ? `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}` : `CREATE DATABASE ${name}`,
  );
  await admin.end();
  afterFile(async () => {
    const dropper = new pg.Client({ connectionString: adminUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A DATA_DIR of its own for each runtime, as each server instance has (the audit anchors are written there),
 * removed when the file is done.
 */
function testDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-test-data-'));
  afterFile(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The configuration of a test: like production, except for what `env` changes. */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATA_DIR: testDataDir(),
    AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
    DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
    LOG_LEVEL: 'silent',
    DEMO_MODE: 'true',
    // A test file holds several runtimes at once, two files run side by side, and each runtime also has the job
    // queue's and the session listener's connections: ten each would pass PostgreSQL's default of 100. A runtime
    // a file has done with gives its pooled connections back within seconds instead of holding them to the end.
    DATABASE_POOL_MAX: '4',
    DATABASE_POOL_IDLE_SECONDS: '3',
    ...env,
  });
}

/**
 * A runtime (database, services, job queue with its worker) on the given database, closed when the test that
 * opened it ends, or the file when opened outside a test (or earlier by the test: close() may be called twice).
 */
export async function openTestRuntime(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const runtime = await openRuntime(testConfig(databaseUrl, env), silentLog, options);
  afterOpener(() => runtime.close());
  return runtime;
}

const TEST_ACTOR = { sessionId: null, userId: 'test', userRole: 'system', clientIp: null, userAgent: null };

/**
 * Creates an account with a password through the product's one account-creation function; a provider account
 * gets its provider record (specialty Psychiatry). Answers the account's id.
 */
export function createTestAccount(
  runtime: Runtime,
  account: {
    email: string;
    firstName: string;
    lastName: string;
    role: Role;
    password: string;
    emailVerified?: boolean;
  },
): Promise<string> {
  const { role, ...fields } = account;
  const full = role === 'provider' ? { ...fields, role, provider: { specialty: 'Psychiatry' } } : { ...fields, role };
  return createAccountWithPassword(runtime.auth, runtime.database.db, full, TEST_ACTOR);
}

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  databaseUrl: string;
}

/**
 * The real app on a real database, configured like production except for what `env` changes: its job queue
 * runs a worker, as in production (wait for its work with `runtime.jobs.drain()`).
 * Demo accounts are created unless `demo: false`. Closed when the test that made it ends, or the file when made
 * outside a test.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { databaseUrl?: string; demo?: boolean } & BuildOptions = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase({ migrated: true }));
  const runtime = await openRuntime(
    testConfig(databaseUrl, env),
    silentLog,
    options.demo === false ? {} : { seedDemo: 'accounts' },
  );
  const app = await buildApp(appDependencies(runtime), options);
  afterOpener(async () => {
    await app.close();
    await runtime.close();
  });
  return { app, runtime, databaseUrl };
}

export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  setCookies: string[];
}

/**
 * A browser-like client: keeps the session cookie between calls, like a browser would (and the other cookies
 * the server sets, such as a sign-in's two-factor challenge, in `otherCookies`).
 */
export class TestClient {
  /** `name=value` of the session cookie, or undefined. */
  cookie: string | undefined;
  /** Every other cookie the server has set and not removed, by name. */
  readonly otherCookies = new Map<string, string>();
  readonly #app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.#app = app;
  }

  async gql<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<GraphQLResponse<T>> {
    const response = await this.#app.inject({
      method: 'POST',
      url: '/graphql',
      headers: {
        ...headers,
        'content-type': 'application/json',
        ...(this.#cookieHeader() ? { cookie: this.#cookieHeader() } : {}),
      },
      payload: { query, variables },
    });
    const setCookies = [response.headers['set-cookie'] ?? []].flat();
    for (const header of setCookies) {
      const [pair] = header.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      const removed = !value || /max-age=0/i.test(header);
      if (!name) continue;
      if (name.includes('session_token')) this.cookie = removed ? undefined : `${name}=${value}`;
      else if (removed) this.otherCookies.delete(name);
      else this.otherCookies.set(name, value);
    }
    const body = response.json<{ data: T | null; errors?: GraphQLResponse['errors'] }>();
    return {
      status: response.statusCode,
      data: body.data,
      ...(body.errors ? { errors: body.errors } : {}),
      setCookies,
    };
  }

  #cookieHeader(): string {
    return [
      ...(this.cookie ? [this.cookie] : []),
      ...[...this.otherCookies].map(([name, value]) => `${name}=${value}`),
    ].join('; ');
  }

  async signIn(email: string, password: string) {
    const response = await this.gql<{
      signIn: {
        success: boolean;
        error: string | null;
        nextStep: string | null;
        user: { userId: string; role: string; name: string; email: string; source: string } | null;
      };
    }>(
      'mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { success error nextStep user { userId email name role source } } }',
      { email, password },
    );
    if (!response.data) throw new Error(`signIn failed: ${JSON.stringify(response.errors)}`);
    return response.data.signIn;
  }

  async me() {
    const response = await this.gql<{
      me: { userId: string; email: string; name: string; role: string; source: string } | null;
    }>('{ me { userId email name role source } }');
    return response.data?.me ?? null;
  }
}

/** Submits a patient access request as an anonymous visitor: a valid one, with `overrides` replacing its fields. */
export function submitPatientAccessRequest(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  return new TestClient(app).gql<{ submitPatientAccessRequest: { success: boolean } }>(
    'mutation P($input: PatientAccessRequestInput!) { submitPatientAccessRequest(input: $input) { success } }',
    {
      input: {
        firstName: 'Ana',
        lastName: 'Ruiz',
        dateOfBirth: '1990-01-02',
        phone: '503-555-0101',
        email: `ana.${crypto.randomUUID().slice(0, 8)}@example.com`,
        reasonForInterest: 'Anxiety',
        consentToContact: true,
        ...overrides,
      },
    },
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The budget of a test that starts a command twice (`npm run audit:verify`, `npm run keys:rotate`): twice the
 * configured one. Each start opens the whole runtime, and beside the browser tests one start was seen taking over
 * 45 s, so two outlived CI's 90 s while every step was right (decision 055).
 */
export const TWO_CLI_STARTS = { timeout: 2 * TEST_BUDGET_MS };

/**
 * The budget of a test that backs up, restores or exports a whole practice (several runtimes and command starts):
 * four times the configured one. A bare number of milliseconds does not scale with CI's slower machines (a test
 * given 60 s had less than CI's default of 90 s and failed beside other work).
 */
export const FOUR_BUDGETS = { timeout: 4 * TEST_BUDGET_MS };

/** Runs a script of the server on the project's Node with `env` added, and answers its exit code and output. */
export function runNode(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
