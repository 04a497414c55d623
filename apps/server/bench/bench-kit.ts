// Helpers shared by the benchmarks (patients.bench.ts, appointments.bench.ts): child processes, GraphQL calls,
// autocannon runs, and writing one section of docs/performance.md.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const SMOKE = process.env.BENCH_SMOKE === '1';
export const DURATION = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 1 : 10));
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

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
