// npm run bench (after the patients benchmark): the production server on a database of 200,000 appointments over
// 50 providers, measured with autocannon on loopback beside a floor (bench/floor-server.ts) that runs the same
// repository queries without session, GraphQL or audit. Writes the "Appointments API" section of
// docs/performance.md. BENCH_SMOKE=1 checks that it all runs (2,000 appointments, 1 s per row, nothing written).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { addDays, DEMO_PASSWORD, MAX_PAGE_SIZE, todayIn, zonedInstant } from '@telehealth/shared';
import {
  benchEnvironment,
  commandEnv,
  CONNECTIONS,
  DURATION,
  floorEnv,
  graphql,
  measure,
  ROOT,
  SMOKE,
  start,
  stopChildren,
  writeSection,
  type Result,
} from './bench-kit.ts';
import { spawn } from 'node:child_process';

const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? (SMOKE ? 2_000 : 200_000));
const PROVIDERS = Number(process.env.BENCH_PROVIDERS ?? 50);
const PORT = 3720;
const FLOOR_PORT = 3721;
const BASE = `http://127.0.0.1:${PORT}`;
const ZONE = 'America/New_York';

/** Runs the seed command and answers the first new provider's id (it prints `first-provider <id>`). */
function seed(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['apps/server/src/cli/seed.ts', '--appointments', String(APPOINTMENTS), '--providers', String(PROVIDERS)],
      { env: { ...process.env, ...env }, cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.once('exit', (code) => {
      const id = /first-provider ([0-9a-f-]{36})/.exec(output)?.[1];
      if (code === 0 && id) resolve(id);
      else reject(new Error(`seeding exited with ${code}`));
    });
  });
}

// The server, the seeding command and the floor share the one data key of the bench's environment.
const { dataDir, env } = benchEnvironment('appointments');
try {
  console.log(`Starting the production server (data in ${dataDir})`);
  await start(
    path.join(ROOT, 'apps/server/src/main.ts'),
    { ...env, PORT: String(PORT), HOST: '127.0.0.1', PRACTICE_TIME_ZONE: ZONE },
    (line) => line.includes('is running at'),
  );
  console.log(`Seeding ${APPOINTMENTS} appointments over ${PROVIDERS} providers`);
  const providerId = await seed({ ...commandEnv(env), PRACTICE_TIME_ZONE: ZONE });

  const pgPort = fs.readFileSync(path.join(dataDir, 'pg-port'), 'utf8').trim();
  const pgPassword = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const signIn = await graphql(
    BASE,
    '',
    'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
    {
      e: 'admin@demo.test',
      p: DEMO_PASSWORD,
    },
  );
  const cookie = signIn.cookies[0]!.split(';')[0]!;
  await start(
    path.join(ROOT, 'apps/server/bench/floor-server.ts'),
    {
      FLOOR_DATABASE_URL: `postgres://postgres:${encodeURIComponent(pgPassword)}@127.0.0.1:${pgPort}/postgres`,
      FLOOR_PORT: String(FLOOR_PORT),
      ...floorEnv(env),
      PUBLIC_URL: BASE,
      PRACTICE_TIME_ZONE: ZONE,
    },
    (line) => line.includes('floor ready'),
  );

  // This month of the calendar (the seeded schedule is centred on today), and a busy working day in it.
  const today = todayIn(ZONE);
  const monthStart = `${today.slice(0, 7)}-01`;
  const monthEnd = addDays(`${addDays(monthStart, 32).slice(0, 7)}-01`, -1);
  let busyDay = addDays(today, 1);
  while ([0, 6].includes(new Date(`${busyDay}T12:00:00Z`).getUTCDay())) busyDay = addDays(busyDay, 1);
  const post = (query: string, variables: Record<string, unknown>): autocannon.Options => ({
    url: `${BASE}/graphql`,
    method: 'POST',
    connections: CONNECTIONS,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, variables }),
  });
  const LIST = `query ListAppointments($f: AppointmentFilterInput) { listAppointments(filter: $f, limit: ${MAX_PAGE_SIZE}) { items { id patient patientId date time duration reason appointmentType status priority } nextToken } }`;
  const SLOTS =
    'query AvailableSlots($p: ID!, $d: String!) { availableSlots(providerId: $p, date: $d, duration: 30) { time available state } }';
  const monthQuery = new URLSearchParams({
    providerId,
    from: zonedInstant(monthStart, '00:00', ZONE).toISOString(),
    to: zonedInstant(addDays(monthEnd, 1), '00:00', ZONE).toISOString(),
  });

  const results: Result[] = [];
  results.push(
    await measure('floor: a month of one provider', {
      url: `http://127.0.0.1:${FLOOR_PORT}/floor/appointments?${monthQuery.toString()}`,
      connections: CONNECTIONS,
    }),
  );
  results.push(
    await measure('listAppointments, a month', post(LIST, { f: { providerId, from: monthStart, to: monthEnd } })),
  );
  results.push(
    await measure('floor: one day of slots', {
      url: `http://127.0.0.1:${FLOOR_PORT}/floor/slots?${new URLSearchParams({ providerId, date: busyDay }).toString()}`,
      connections: CONNECTIONS,
    }),
  );
  results.push(await measure('availableSlots, one day', post(SLOTS, { p: providerId, d: busyDay })));

  const failed = results.filter((r) => r.errors > 0);
  if (SMOKE && failed.length > 0) throw new Error(`smoke run: errors in ${failed.map((r) => r.name).join(', ')}`);
  const ratio = (i: number, floorIndex: number) => (results[i]!.rps / results[floorIndex]!.rps).toFixed(2);
  const rows = results.map(
    (r, i) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${ratio(i, i < 2 ? 0 : 2)} | ${r.errors} |`,
  );
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const section = [
    '## Appointments API (`npm run bench`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, embedded PostgreSQL 18.`,
    `${APPOINTMENTS.toLocaleString('en-US')} appointments over ${PROVIDERS} providers (every 30 minutes of every working day around today); autocannon on loopback, ${CONNECTIONS} connections, ${DURATION} s per row after a 2 s warm-up; signed in as the administrator. listAppointments asks for one provider's calendar month, first page of ${MAX_PAGE_SIZE} (about 20 working days x 20 visits), with the reason decrypted; availableSlots for a working day of that provider (every slot taken).`,
    'Each floor runs the same repository reads without session, GraphQL or audit entry; the ratio is to the floor above it.',
    '',
    '| Operation | req/s | p50 ms | p99 ms | ratio to floor | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  const file = path.join(ROOT, 'docs/performance.md');
  if (SMOKE) {
    console.log(`Smoke run done, every row answered without errors; ${path.relative(ROOT, file)} not written.`);
    console.log(rows.join('\n'));
  } else {
    writeSection(file, '## Appointments API', section);
    console.log(`Wrote ${path.relative(ROOT, file)}`);
  }
} finally {
  await stopChildren();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
