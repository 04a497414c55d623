// Helpers shared by the benchmarks: each bench's data folder, secrets and configuration, child processes, GraphQL
// calls, autocannon runs, and writing one section of docs/performance.md.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { generateDataKeyEntry } from '../src/keys/keyring.ts';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const SMOKE = process.env.BENCH_SMOKE === '1';
export const DURATION = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10));
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

/** The session secret of every bench's server, floors and in-process runtime. */
export const BENCH_AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-00';

/** The production server's variables in a bench (and, for the in-process benches, what their configuration reads). */
export interface BenchEnv {
  NODE_ENV: 'production';
  AUTH_SECRET: string;
  DATA_ENCRYPTION_KEY: string;
  DATA_DIR: string;
  DATABASE_URL: '';
  DEMO_MODE: 'true';
  LOG_LEVEL: 'warn';
}

/**
 * A fresh temporary data folder for the bench `name` (the embedded PostgreSQL's cluster, pg-port and pg-password go
 * there) and the production server's variables over it. The one data key is shared by the server, the commands and
 * the floors of the bench, as a practice's servers and commands share theirs.
 */
export function benchEnvironment(name: string): { dataDir: string; env: BenchEnv } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `telehealth-bench-${name}-`));
  // Run as root, the embedded PostgreSQL runs as the postgres user, who must be able to reach the folder (mkdtemp
  // makes it 0o700).
  fs.chmodSync(dataDir, 0o711);
  const env: BenchEnv = {
    NODE_ENV: 'production',
    AUTH_SECRET: BENCH_AUTH_SECRET,
    DATA_ENCRYPTION_KEY: generateDataKeyEntry('bench'),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    DEMO_MODE: 'true',
    LOG_LEVEL: 'warn',
  };
  return { dataDir, env };
}

/**
 * What a floor (floor-server.ts) is given of the server's variables: its secret, data key and settings, so the
 * audited floor accepts the server's cookie; not DEMO_MODE, nor DATABASE_URL (a floor has its FLOOR_DATABASE_URL).
 */
export function floorEnv({ NODE_ENV, AUTH_SECRET, DATA_ENCRYPTION_KEY, DATA_DIR, LOG_LEVEL }: BenchEnv) {
  return { NODE_ENV, AUTH_SECRET, DATA_ENCRYPTION_KEY, DATA_DIR, LOG_LEVEL };
}

/** What a command run beside the server (the seed) is given: the data folder and the data key. */
export function commandEnv({ DATA_DIR, DATA_ENCRYPTION_KEY }: BenchEnv) {
  return { DATA_DIR, DATA_ENCRYPTION_KEY };
}

/**
 * For the benches that open the runtime in-process: the data folder and the configuration the production server
 * would load from `benchEnvironment(name)`'s variables (over the bench's own environment).
 */
export function benchConfig(name: string): { dataDir: string; config: Config } {
  const { dataDir, env } = benchEnvironment(name);
  return { dataDir, config: loadConfig({ ...process.env, ...env }) };
}

/** A logger for an in-process runtime that shows only errors. */
export const silentLog: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> = {
  info: () => undefined,
  warn: () => undefined,
  error: console.error,
};

export const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((c) => c.kill('SIGTERM')));

export function start(
  script: string,
  env: Record<string, string>,
  ready: (line: string) => boolean,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().split('\n').some(ready)) resolve(child);
    });
  });
}

export function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: 'inherit', cwd: ROOT });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

export async function graphql(base: string, cookie: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, variables }),
  });
  return {
    json: (await response.json()) as { data: Record<string, unknown> | null; errors?: unknown[] },
    cookies: response.headers.getSetCookie(),
  };
}

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function measure(name: string, options: autocannon.Options): Promise<Result> {
  // A short warm-up lets the JIT and PostgreSQL's caches settle before the measured run.
  if (!SMOKE) await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: DURATION });
  const errors = result.errors + result.non2xx;
  console.log(
    `${name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  errors ${errors}`,
  );
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** Replaces the section that starts with `heading` in docs/performance.md, keeping the others. */
export function writeSection(file: string, heading: string, section: string): void {
  const existing = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : '# Performance\n\nFigures from the benchmarks; no test asserts timings.\n\n';
  const start_ = existing.indexOf(heading);
  const end = start_ === -1 ? -1 : existing.indexOf('\n## ', start_ + 1);
  const updated =
    start_ === -1
      ? `${existing.trimEnd()}\n\n${section}`
      : `${existing.slice(0, start_)}${section}${end === -1 ? '' : existing.slice(end + 1)}`;
  fs.writeFileSync(file, updated.endsWith('\n') ? updated : `${updated}\n`);
}

/** Stops the children (newest first) and waits for each. */
export async function stopChildren(): Promise<void> {
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
