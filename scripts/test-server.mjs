// Runs the server integration tests on the embedded PostgreSQL, then again on the machine's PostgreSQL
// (TEST_EXTERNAL_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) whenever one is reachable.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const external = process.env.TEST_EXTERNAL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function runVitest(label, env) {
  console.log(`\n=== server tests on ${label} ===`);
  const result = spawnSync('vitest', ['run', '--project', 'server'], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function reachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query('SHOW server_version_num');
    await client.end();
    return Number(rows[0].server_version_num) >= 150000;
  } catch {
    return false;
  }
}

runVitest('the embedded PostgreSQL', { TEST_DATABASE_URL: '' });
if (await reachable(external)) {
  runVitest(`the external PostgreSQL (${new URL(external).host})`, { TEST_DATABASE_URL: external });
} else {
  console.log(`\nNo PostgreSQL 15+ reachable at ${new URL(external).host}: the external pass is skipped.`);
}
