// CPU time per request of the server process (issue 26, point 9), steadier than req/s on a shared machine: the same
// server, seed, floor and queries as appointments.bench.ts, each measured as the utime + stime the process spent
// (/proc/<pid>/stat) over a fixed number of requests from few connections, after a warm-up. Linux only.
//   node apps/server/bench/appointments-cpu.bench.ts
// BENCH_APPOINTMENTS (20,000) over BENCH_PROVIDERS (5): 4,000 a provider, so a month of 100 and more rows.
// BENCH_REQUESTS (1,500) after BENCH_WARMUP (300), BENCH_CONNECTIONS (8), BENCH_ROUNDS (2) rounds of every row.
// BENCH_PROFILE=<dir>: the server runs with --cpu-prof into <dir>, and `<dir>/windows.json` gets each measured
// row's time window (CPU profile clock, microseconds), so a profile can be read for one row alone.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { addDays, DEMO_PASSWORD, MAX_PAGE_SIZE, todayIn, zonedInstant } from '@telehealth/shared';
import { benchEnvironment, commandEnv, floorEnv, graphql, ROOT } from './bench-kit.ts';

const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 20_000);
const PROVIDERS = Number(process.env.BENCH_PROVIDERS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_500);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const PORT = 3730;
const FLOOR_PORT = 3731;
const BASE = `http://127.0.0.1:${PORT}`;
const ZONE = 'America/New_York';
const TICK_MS = 1000 / 100; // USER_HZ

const children: ChildProcess[] = [];

function startChild(script: string, execArgs: string[], env: Record<string, string>, ready: string) {
  return new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgs, script], {
      env: { ...process.env, ...env },
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (process.env.BENCH_VERBOSE) process.stdout.write(text);
      if (text.includes(ready)) resolve(child);
    });
  });
}

function seed(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['apps/server/src/cli/seed.ts', '--appointments', String(APPOINTMENTS), '--providers', String(PROVIDERS)],
      { env: { ...process.env, ...env }, cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      const id = /first-provider ([0-9a-f-]{36})/.exec(output)?.[1];
      if (code === 0 && id) resolve(id);
      else reject(new Error(`seeding exited with ${code}`));
    });
  });
}

/** utime + stime of a process, in milliseconds. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);

const { dataDir, env } = benchEnvironment('appointments-cpu');
try {
  if (PROFILE_DIR) fs.mkdirSync(PROFILE_DIR, { recursive: true });
  const server = await startChild(
    path.join(ROOT, 'apps/server/src/main.ts'),
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, '--cpu-prof-name=server.cpuprofile'] : [],
    { ...env, PORT: String(PORT), HOST: '127.0.0.1', PRACTICE_TIME_ZONE: ZONE },
    'is running at',
  );
  const started = Date.now();
  const providerId = await seed({ ...commandEnv(env), PRACTICE_TIME_ZONE: ZONE });
  console.log(`Seeded ${APPOINTMENTS} appointments over ${PROVIDERS} providers in ${(Date.now() - started) / 1000} s`);
  const pgPort = fs.readFileSync(path.join(dataDir, 'pg-port'), 'utf8').trim();
  const pgPassword = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const signIn = await graphql(
    BASE,
    '',
    'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
    { e: 'admin@demo.test', p: DEMO_PASSWORD },
  );
  const cookie = signIn.cookies[0]!.split(';')[0]!;
  const floor = await startChild(
    path.join(ROOT, 'apps/server/bench/floor-server.ts'),
    [],
    {
      FLOOR_DATABASE_URL: `postgres://postgres:${encodeURIComponent(pgPassword)}@127.0.0.1:${pgPort}/postgres`,
      FLOOR_PORT: String(FLOOR_PORT),
      ...floorEnv(env),
      PUBLIC_URL: BASE,
      PRACTICE_TIME_ZONE: ZONE,
    },
    'floor ready',
  );

  const today = todayIn(ZONE);
  const monthStart = `${today.slice(0, 7)}-01`;
  const monthEnd = addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1);
  let busyDay = addDays(today, 1);
  while ([0, 6].includes(new Date(`${busyDay}T12:00:00Z`).getUTCDay())) busyDay = addDays(busyDay, 1);
  const LIST = `query ListAppointments($f: AppointmentFilterInput) { listAppointments(filter: $f, limit: ${MAX_PAGE_SIZE}) { items { id patient patientId date time duration reason appointmentType status priority } nextToken } }`;
  const SLOTS =
    'query AvailableSlots($p: ID!, $d: String!) { availableSlots(providerId: $p, date: $d, duration: 30) { time available state } }';
  const post = (query: string, variables: Record<string, unknown>) => ({
    url: `${BASE}/graphql`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, variables }),
  });
  const monthQuery = new URLSearchParams({
    providerId,
    from: zonedInstant(monthStart, '00:00', ZONE).toISOString(),
    to: zonedInstant(addDays(monthEnd, 1), '00:00', ZONE).toISOString(),
  });
  const listBody = await graphql(BASE, cookie, LIST, { f: { providerId, from: monthStart, to: monthEnd } });
  const items = (listBody.json.data?.listAppointments as { items: unknown[] } | undefined)?.items ?? [];
  if (listBody.json.errors || items.length !== MAX_PAGE_SIZE) {
    throw new Error(`listAppointments answered ${items.length} rows: ${JSON.stringify(listBody.json.errors)}`);
  }

  const rows: { name: string; pid: number; options: autocannon.Options }[] = [
    {
      name: 'floor: a month',
      pid: floor.pid!,
      options: { url: `http://127.0.0.1:${FLOOR_PORT}/floor/appointments?${monthQuery.toString()}` },
    },
    {
      name: 'listAppointments, a month',
      pid: server.pid!,
      options: post(LIST, { f: { providerId, from: monthStart, to: monthEnd } }),
    },
    {
      name: 'floor: one day of slots',
      pid: floor.pid!,
      options: {
        url: `http://127.0.0.1:${FLOOR_PORT}/floor/slots?${new URLSearchParams({ providerId, date: busyDay }).toString()}`,
      },
    },
    { name: 'availableSlots, one day', pid: server.pid!, options: post(SLOTS, { p: providerId, d: busyDay }) },
  ];
  const windows: { name: string; round: number; from: number; to: number }[] = [];
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    for (const row of rows) {
      if (ONLY && !ONLY.has(row.name)) continue;
      await autocannon({ ...row.options, connections: CONNECTIONS, amount: WARMUP });
      const before = cpuMs(row.pid);
      const from = nowMicros();
      const result = await autocannon({ ...row.options, connections: CONNECTIONS, amount: REQUESTS });
      const to = nowMicros();
      const spent = cpuMs(row.pid) - before;
      windows.push({ name: row.name, round, from, to });
      const errors = result.errors + result.non2xx;
      console.log(
        `round ${round}  ${row.name.padEnd(28)} ${(spent / REQUESTS).toFixed(2).padStart(6)} ms CPU/request  ${result.requests.average.toFixed(0).padStart(5)} req/s  errors ${errors}  load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
  }
  if (PROFILE_DIR) fs.writeFileSync(path.join(PROFILE_DIR, 'windows.json'), JSON.stringify(windows, null, 1));
} finally {
  for (const child of children.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
