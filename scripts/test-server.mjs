// Runs the server integration tests on the embedded PostgreSQL and, whenever one is reachable, on the machine's
// PostgreSQL (TEST_EXTERNAL_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test): the two passes side by
// side (decision 055), each one's lines prefixed with its name, and each one's time printed at the end.
// TEST_SERVER_PASSES=sequential runs them one after the other instead, with their output as it comes.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import pg from 'pg';

const external = process.env.TEST_EXTERNAL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sequential = process.env.TEST_SERVER_PASSES === 'sequential';

/** Runs one vitest pass; answers its exit code and seconds. `prefix`: prepended to each line of its output. */
function runVitest(label, prefix, env, args = []) {
  console.log(`\n=== server tests on ${label} ===`);
  const started = Date.now();
  const child = spawn('vitest', ['run', '--project', 'server', ...args], {
    stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  if (prefix) {
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => console.log(`${prefix} ${line}`));
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code) =>
      resolve({ label, code: code ?? 1, seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

/** PostgreSQL 15 or newer at `url`: its connection limit; null when none answers there. */
async function reachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      "SELECT current_setting('server_version_num')::int AS version, current_setting('max_connections')::int AS max",
    );
    await client.end();
    return rows[0].version >= 150000 ? { maxConnections: rows[0].max } : null;
  } catch {
    return null;
  }
}

/**
 * Two test files at once need up to about 55 connections on PostgreSQL 15: each runtime holds its pool, the job
 * queue's pool and its listeners, and what a test opens for itself is closed when that test ends (a file that opened
 * a server per test and kept them all to its end once reached 97 of 100 with two files). A server with fewer than
 * PostgreSQL's default of 100 runs the files one at a time. The pass prints the most connections it saw in use.
 * TEST_SERVER_ONE_FILE_AT_A_TIME=1 runs that pass one file at a time on any server (decision 055).
 */
const CONNECTIONS_FOR_TWO_FILES = 100;
const oneFileAtATimeAsked = process.env.TEST_SERVER_ONE_FILE_AT_A_TIME === '1';

/**
 * Samples the client connections of the server at `url` twice a second until stopped; answers the most seen. A
 * sample that fails (the server busy or restarting) is skipped.
 */
function watchConnections(url) {
  const client = new pg.Client({ connectionString: url });
  let most = 0;
  let stopped = false;
  const sampling = (async () => {
    await client.connect();
    while (!stopped) {
      try {
        const { rows } = await client.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend'",
        );
        most = Math.max(most, rows[0].n);
      } catch {
        // skipped
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await client.end();
  })().catch(() => undefined);
  return async () => {
    stopped = true;
    await sampling;
    return most;
  };
}

const embeddedPass = {
  label: 'the embedded PostgreSQL',
  prefix: '[embedded]',
  env: { TEST_DATABASE_URL: '' },
  args: [],
};
const server = await reachable(external);
const passes = [embeddedPass];
if (server) {
  const oneFileAtATime = oneFileAtATimeAsked || server.maxConnections < CONNECTIONS_FOR_TWO_FILES;
  passes.push({
    label: `the external PostgreSQL (${new URL(external).host}${oneFileAtATime ? ', one file at a time' : ''})`,
    prefix: '[pg15]',
    env: { TEST_DATABASE_URL: external },
    args: oneFileAtATime ? ['--maxWorkers=1'] : [],
    maxConnections: server.maxConnections,
  });
} else {
  console.log(`\nNo PostgreSQL 15+ reachable at ${new URL(external).host}: the external pass is skipped.`);
}

const externalPass = passes.find((pass) => pass.maxConnections !== undefined);
const stopWatching = externalPass ? watchConnections(external) : () => Promise.resolve(0);

let results;
if (sequential || passes.length === 1) {
  results = [];
  for (const pass of passes) {
    const result = await runVitest(pass.label, null, pass.env, pass.args);
    results.push(result);
    if (result.code !== 0) break;
  }
} else {
  results = await Promise.all(passes.map((pass) => runVitest(pass.label, pass.prefix, pass.env, pass.args)));
}

console.log('\nServer test passes:');
for (const { label, code, seconds } of results) {
  console.log(`  ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s: ${label}`);
}
if (externalPass) {
  console.log(
    `  most connections in use on ${new URL(external).host}: ${await stopWatching()} of ${externalPass.maxConnections}`,
  );
}
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
