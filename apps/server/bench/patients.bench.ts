// npm run bench: the production server on a database of 100,000 patients, measured with autocannon on
// loopback, beside two floors (bench/floor-server.ts): a bare route running the same query, and a route doing
// an audited read's work without GraphQL. Writes docs/performance.md.
// BENCH_SMOKE=1 checks that it all runs (200 patients, 1 s per row, nothing written) instead of measuring.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { DEMO_PASSWORD } from '@telehealth/shared';
import {
  benchEnvironment,
  commandEnv,
  CONNECTIONS,
  DURATION,
  floorEnv,
  graphql as graphqlAt,
  measure,
  ROOT,
  run,
  SMOKE,
  start,
  stopChildren,
  writeSection,
  type Result,
} from './bench-kit.ts';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? (SMOKE ? 200 : 100_000));
const PORT = 3710;
const FLOOR_PORT = 3711;
const BASE = `http://127.0.0.1:${PORT}`;
const graphql = (cookie: string, query: string, variables: Record<string, unknown> = {}) =>
  graphqlAt(BASE, cookie, query, variables);

// The server, the seeding command and the floors share the one data key of the bench's environment.
const { dataDir, env } = benchEnvironment('patients');
try {
  console.log(`Starting the production server (data in ${dataDir})`);
  await start(
    path.join(ROOT, 'apps/server/src/main.ts'),
    {
      ...env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
    },
    (line) => line.includes('is running at'),
  );
  console.log(`Seeding ${PATIENTS} patients`);
  await run(process.execPath, ['apps/server/src/cli/seed.ts', '--patients', String(PATIENTS)], commandEnv(env));

  const pgPort = fs.readFileSync(path.join(dataDir, 'pg-port'), 'utf8').trim();
  const pgPassword = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const signIn = await graphql(
    '',
    'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
    { e: 'admin@demo.test', p: DEMO_PASSWORD },
  );
  const cookie = signIn.cookies[0]!.split(';')[0]!;
  // The floors use the server's secret and session settings, so the audited floor accepts its cookie.
  await start(
    path.join(ROOT, 'apps/server/bench/floor-server.ts'),
    {
      FLOOR_DATABASE_URL: `postgres://postgres:${encodeURIComponent(pgPassword)}@127.0.0.1:${pgPort}/postgres`,
      FLOOR_PORT: String(FLOOR_PORT),
      ...floorEnv(env),
      PUBLIC_URL: BASE,
    },
    (line) => line.includes('floor ready'),
  );

  // A token half-way through the list: page there once, as a person scrolling would.
  let deepToken: string | null = null;
  const LIST_IDS = 'query($t: String) { listPatients(limit: 100, nextToken: $t) { items { id } nextToken } }';
  let someId = '';
  for (let page = 0; page < Math.max(1, PATIENTS / 200); page++) {
    const { json } = await graphql(cookie, LIST_IDS, { t: deepToken });
    const list = json.data!.listPatients as { items: { id: string }[]; nextToken: string };
    deepToken = list.nextToken;
    someId = list.items[0]!.id;
  }

  const LIST =
    'query ListPatients($t: String, $f: PatientFilterInput) { listPatients(limit: 50, nextToken: $t, filter: $f) { items { id firstName lastName email phone dateOfBirth isActive createdAt } nextToken } }';
  const post = (query: string, variables: Record<string, unknown>): autocannon.Options => ({
    url: `${BASE}/graphql`,
    method: 'POST',
    connections: CONNECTIONS,
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, variables }),
  });

  const results: Result[] = [];
  results.push(
    await measure('floor: bare route, first page', {
      url: `http://127.0.0.1:${FLOOR_PORT}/floor/patients`,
      connections: CONNECTIONS,
    }),
  );
  results.push(
    await measure('floor: session + page + audit entry', {
      url: `http://127.0.0.1:${FLOOR_PORT}/floor/audited-patients`,
      connections: CONNECTIONS,
      headers: { cookie },
    }),
  );
  results.push(await measure('listPatients, first page', post(LIST, {})));
  results.push(await measure('listPatients, page 500 (deep)', post(LIST, { t: deepToken })));
  results.push(await measure('listPatients, search "ander"', post(LIST, { f: { search: 'ander' } })));
  results.push(
    await measure(
      'getPatient',
      post('query($id: ID!) { getPatient(id: $id) { id firstName lastName email allergies } }', { id: someId }),
    ),
  );
  results.push(
    await measure(
      'createPatient',
      post('mutation($i: CreatePatientInput!) { createPatient(input: $i) { id } }', {
        i: {
          firstName: 'Bench',
          lastName: 'Mark',
          email: 'bench.mark@example.net',
          dateOfBirth: '1980-01-01',
          phone: '(503) 555-0100',
        },
      }),
    ),
  );

  const failed = results.filter((r) => r.errors > 0);
  if (SMOKE && failed.length > 0) throw new Error(`smoke run: errors in ${failed.map((r) => r.name).join(', ')}`);
  const floor = results[0]!.rps;
  const auditedFloor = results[1]!.rps;
  const rows = results.map(
    (r) =>
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / floor).toFixed(2)} | ${(r.rps / auditedFloor).toFixed(2)} | ${r.errors} |`,
  );
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const section = [
    '## Patients API (`npm run bench`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, embedded PostgreSQL 18.`,
    `${PATIENTS.toLocaleString('en-US')} patients; autocannon on loopback, ${CONNECTIONS} connections, ${DURATION} s per row after a 2 s warm-up; signed in as the administrator (sees every patient). The load generator shares the 2 cores with the server and PostgreSQL.`,
    'Every GraphQL request verifies the session (one statement, which writes the sliding deadline at most every 10 s) and writes its audit entry with the read (one statement for listPatients and getPatient) or in the same transaction as the write; audited requests take no shared lock (the chain is sealed afterwards, decision 015).',
    'Two floors: the bare route runs the page query alone; the audited floor does an audited read without GraphQL (the same session statement and cookie, the page query with its audit entry). The first ratio is to the bare route, the second to the audited floor.',
    '',
    '| Operation | req/s | p50 ms | p99 ms | ratio to floor | ratio to audited floor | errors |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  const file = path.join(ROOT, 'docs/performance.md');
  if (SMOKE) {
    console.log(`Smoke run done, every row answered without errors; ${path.relative(ROOT, file)} not written.`);
    console.log(rows.join('\n'));
  } else {
    writeSection(file, '## Patients API', section);
    console.log(`Wrote ${path.relative(ROOT, file)}`);
  }
} finally {
  await stopChildren();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
