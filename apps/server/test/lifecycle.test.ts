import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { sleep } from './helpers.ts';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');

/** Postgres processes whose command line names this data folder. */
function postgresProcessesFor(dataDir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return command.includes('postgres') && command.includes(path.join(dataDir, 'pg'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** What each started server printed, standard output and error together. */
const outputs = new Map<ChildProcess, () => string>();

async function startServer(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_MODE: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  outputs.set(child, () => output);
  for (let waited = 0; waited < 60_000; waited += 250) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`server did not start:\n${output}`);
}

async function graphql(port: number, query: string, variables: Record<string, unknown>, cookie?: string) {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return {
    body: (await response.json()) as { data: Record<string, { success?: boolean; userId?: string } | null> },
    cookies: response.headers.getSetCookie(),
  };
}

const SIGN_IN = 'mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }';

/**
 * Each test starts the real server (initdb, migrations, the job queue's schema, the demo practice) once or twice;
 * on two busy cores one start alone can take 20 s.
 */
const SERVER_TEST_TIMEOUT_MS = 120_000;

// The embedded server's life cycle; with TEST_DATABASE_URL the suite runs on an external server instead.
describe.skipIf(inject('databaseKind') !== 'embedded')('embedded PostgreSQL life cycle', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-lifecycle-'));
  fs.chmodSync(dataDir, 0o711);
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const pid of postgresProcessesFor(dataDir)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'recovers after SIGKILL without losing acknowledged writes, and a normal stop leaves no postgres behind',
    async () => {
      const port = 3900 + Math.floor(Math.random() * 90);
      const first = await startServer(dataDir, port);
      children.push(first);
      const signedIn = await graphql(port, SIGN_IN, { e: 'admin@demo.test', p: DEMO_PASSWORD });
      expect(signedIn.body.data.signIn?.success).toBe(true);
      const cookie = signedIn.cookies[0]!.split(';')[0]!;

      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      expect(postgresProcessesFor(dataDir).length).toBeGreaterThan(0); // the orphan the next start must handle

      // Draining for a few seconds when stopped, as behind a load balancer (decision 072).
      const second = await startServer(dataDir, port, { SHUTDOWN_DRAIN_SECONDS: '4' });
      children.push(second);
      // The demo accounts are the last thing start-up prints, after the address, for whoever started it.
      await expect.poll(() => outputs.get(second)!(), { timeout: 10_000 }).toContain('patient@demo.test');
      const printed = outputs.get(second)!();
      expect(printed.indexOf('Demo accounts')).toBeGreaterThan(printed.indexOf('is running at'));
      expect(printed.indexOf('is running at')).toBeGreaterThan(-1);
      // The session written before the kill survived: the acknowledged write is still there.
      const me = await graphql(port, '{ me { userId } }', {}, cookie);
      expect(me.body.data.me?.userId).toEqual(expect.any(String));

      const status = (path: string) =>
        fetch(`http://127.0.0.1:${port}${path}`).then(
          (response) => response.status,
          () => 0,
        );
      expect(await status('/api/health/ready')).toBe(200);
      const exited = new Promise<number | null>((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      // Not ready at once, while still answering (live, and the session's requests) until the drain is over.
      await expect.poll(() => status('/api/health/ready'), { timeout: 3_000, interval: 50 }).toBe(503);
      expect(await status('/api/health/live')).toBe(200);
      expect((await graphql(port, '{ me { userId } }', {}, cookie)).body.data.me?.userId).toEqual(expect.any(String));
      expect(await exited).toBe(0);
      expect(postgresProcessesFor(dataDir)).toEqual([]);
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a second server on a data folder in use',
    async () => {
      const port = 3990 + Math.floor(Math.random() * 9);
      const running = await startServer(dataDir, port);
      children.push(running);
      await expect(startServer(dataDir, port + 100)).rejects.toThrow(/already using the data folder/);
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
      expect(postgresProcessesFor(dataDir)).toEqual([]);
    },
    SERVER_TEST_TIMEOUT_MS,
  );
});
