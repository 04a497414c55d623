// Runs the server integration tests on the embedded PostgreSQL, then again on the machine's PostgreSQL
// (TEST_EXTERNAL_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) whenever one is reachable.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const external = process.env.TEST_EXTERNAL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function runVitest(label, env, args = []) {
  console.log(`\n=== server tests on ${label} ===`);
  const result = spawnSync('vitest', ['run', '--project', 'server', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
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
 * Two test files at once can pass PostgreSQL's default of 100 connections (each runtime holds its pool, the job
 * queue's pool and its listeners, and a file keeps its runtimes until it ends): the embedded PostgreSQL is started
 * with 300 (test/global-setup.ts); on a machine's PostgreSQL with fewer, the files run one at a time.
 */
const CONNECTIONS_FOR_TWO_FILES = 300;

runVitest('the embedded PostgreSQL', { TEST_DATABASE_URL: '' });
const server = await reachable(external);
if (server) {
  const oneFileAtATime = server.maxConnections < CONNECTIONS_FOR_TWO_FILES;
  runVitest(
    `the external PostgreSQL (${new URL(external).host}${oneFileAtATime ? ', one file at a time' : ''})`,
    { TEST_DATABASE_URL: external },
    oneFileAtATime ? ['--maxWorkers=1'] : [],
  );
} else {
  console.log(`\nNo PostgreSQL 15+ reachable at ${new URL(external).host}: the external pass is skipped.`);
}
