import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { defineConfig, devices } from '@playwright/test';
import {
  CLUSTER,
  lateMorningZone,
  MAIN_SERVER,
  PRACTICE_SETTINGS,
  SHORT_SESSION_SERVER,
  VIDEO_SERVER,
} from './support/servers.ts';
import { SLOW_MACHINE } from './support/budget.ts';

const isCI = !!process.env.CI;

/**
 * One fresh folder per run holds both servers' data (their embedded PostgreSQL clusters). Playwright loads
 * this file in the runner and again in every worker; the runner creates the folder and passes it on through
 * the environment, so the workers reuse it instead of creating their own.
 */
function dataRootForThisRun(): string {
  const existing = process.env.TELEHEALTH_E2E_DATA_ROOT;
  if (existing) return existing;
  const root = mkdtempSync(path.join(tmpdir(), 'telehealth-e2e-'));
  // As root the server runs PostgreSQL as the `postgres` user, who must be able to reach and write the folder.
  chmodSync(root, 0o777);
  process.env.TELEHEALTH_E2E_DATA_ROOT = root;
  process.env.TELEHEALTH_E2E_AUTH_SECRET = randomBytes(32).toString('base64url');
  process.env.TELEHEALTH_E2E_DATA_KEY = `e2e:${randomBytes(32).toString('base64')}`;
  // Removed when the runner exits, which is after Playwright has stopped the servers (global teardown runs
  // before the web servers are stopped, while PostgreSQL still holds the folders; see support/global-teardown.ts).
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

function dataDir(name: string): string {
  const dir = path.join(dataRootForThisRun(), name);
  // Only when created: a worker loading this file must not change a folder the running server has set up.
  if (mkdirSync(dir, { recursive: true }) !== undefined) chmodSync(dir, 0o777);
  return dir;
}

function serverEnv(
  server: typeof MAIN_SERVER | typeof SHORT_SESSION_SERVER | typeof VIDEO_SERVER,
  dir: string,
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    AUTH_SECRET: process.env.TELEHEALTH_E2E_AUTH_SECRET ?? '',
    DATA_ENCRYPTION_KEY: process.env.TELEHEALTH_E2E_DATA_KEY ?? '',
    PORT: String(server.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: server.url,
    DATA_DIR: dir,
    EMBEDDED_PG_PORT: String(server.embeddedPgPort),
    DEMO_MODE: 'true',
    SESSION_IDLE_MINUTES: String(server.sessionIdleMinutes),
    LOG_LEVEL: 'warn',
    // No load balancer to tell: stopped at the end of the run without the production default's 5 s of draining.
    SHUTDOWN_DRAIN_SECONDS: '0',
    // Every browser test submits from 127.0.0.1; the limit itself is tested on the server (access-requests.test.ts).
    ACCESS_REQUESTS_PER_HOUR: '1000',
    // Appointment mail and waitlist offers go out a second after the change, not half a minute.
    BOOKING_MAIL_GRACE_SECONDS: '1',
    CLINIC_PHONE: PRACTICE_SETTINGS.clinicPhone,
    BOOKING_URL: PRACTICE_SETTINGS.bookingUrl,
    CONTACT_EMAIL: PRACTICE_SETTINGS.contactEmail,
  };
}

/** A server's environment without CLINIC_PHONE, BOOKING_URL and CONTACT_EMAIL: what the demo has unconfigured. */
function withoutPracticeSettings(env: Record<string, string>): Record<string, string> {
  const { CLINIC_PHONE: _phone, BOOKING_URL: _booking, CONTACT_EMAIL: _contact, ...rest } = env;
  return rest;
}

/**
 * Locally a failed test keeps its trace: each action's DOM before and after, the network and the console. In CI none
 * is recorded: a run's test-results folder goes with its machine and only its output is read, while recording cost
 * every test, passed or not, a fifth of the CPU the browser tests use (measured with process accounting, decision
 * 055). `E2E_TRACE=retain-on-failure` turns it back on for a CI run being looked into. Never with the screencast (a
 * JPEG of every frame the page paints, for the trace's film strip); the failure's own screenshot is still taken.
 */
const TRACE_MODE = (process.env.E2E_TRACE ?? (isCI ? 'off' : 'retain-on-failure')) as 'off' | 'retain-on-failure';

/**
 * Debian's old headless shell (package chromium-headless-shell): the same engine as the full browser without its
 * windowing layers, as Playwright itself runs headless tests; it used 28% less CPU on the same tests than the full
 * Chromium in its new headless mode. `E2E_CHROMIUM=/usr/bin/chromium` runs the full browser, for `--headed`.
 */
const BROWSER = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

/** Debian's Chromium, quiet (no background traffic) and without a GPU. */
const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The video projects' browser: fake camera and microphone, allowed without a prompt, WebRTC on loopback. */
const VIDEO_USE = {
  ...devices['Desktop Chrome'],
  baseURL: VIDEO_SERVER.url,
  launchOptions: {
    executablePath: BROWSER,
    chromiumSandbox: false,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
};

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: isCI,
  // Never retried: a test that passes only on the second try is a bug to fix, not to hide.
  retries: 0,
  workers: 2,
  timeout: 60_000 * SLOW_MACHINE,
  expect: { timeout: 10_000 * SLOW_MACHINE },
  reporter: isCI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  globalTeardown: './support/global-teardown.ts',
  use: {
    baseURL: MAIN_SERVER.url,
    trace: { mode: TRACE_MODE, screenshots: false },
    screenshot: 'only-on-failure',
    locale: 'en-US',
    timezoneId: 'America/New_York',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /(video(-consent)?|cluster)\.spec\.ts/,
      use: {
        ...devices['Desktop Chrome'],
        // No browser downloads here: Debian's Chromium. We run as root, so without its sandbox.
        launchOptions: {
          executablePath: BROWSER,
          chromiumSandbox: false,
          args: CHROMIUM_ARGS,
        },
      },
    },
    {
      // Video calls: fake camera and microphone (a test pattern and a tone), allowed without a prompt, and
      // WebRTC between two browsers of this machine.
      name: 'video',
      testMatch: /video\.spec\.ts/,
      use: VIDEO_USE,
    },
    {
      // The telehealth consent gate (decision 069) turns a setting of the whole practice on: after every other
      // video test, so that none of theirs meets it.
      name: 'video-consent',
      testMatch: /video-consent\.spec\.ts/,
      dependencies: ['video'],
      use: VIDEO_USE,
    },
    {
      // Two instances on one PostgreSQL behind HAProxy (decision 072), started by the spec itself, with the video
      // projects' browser (a visit whose two people are on different instances).
      name: 'cluster',
      testMatch: /cluster\.spec\.ts/,
      use: { ...VIDEO_USE, baseURL: CLUSTER.url },
    },
  ],
  // `E2E_WEB_SERVERS=none` starts none of them: for the cluster project alone, which starts its own servers.
  webServer:
    process.env.E2E_WEB_SERVERS === 'none'
      ? []
      : [
          {
            name: 'server',
            command: 'node ../apps/server/src/main.ts',
            cwd: '.',
            url: `${MAIN_SERVER.url}/api/health`,
            env: serverEnv(MAIN_SERVER, dataDir('server-3100')),
            timeout: 120_000 * SLOW_MACHINE,
            reuseExistingServer: false,
            stdout: 'pipe',
            stderr: 'pipe',
            // SIGTERM lets the server stop its embedded PostgreSQL; the default would kill the process group at once.
            gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
          },
          {
            name: 'video-server',
            command: 'node ../apps/server/src/main.ts',
            cwd: '.',
            url: `${VIDEO_SERVER.url}/api/health`,
            env: {
              ...serverEnv(VIDEO_SERVER, dataDir('server-3102')),
              // Chosen once, when the configuration is first loaded (the workers reuse the value, like the data root).
              PRACTICE_TIME_ZONE: (process.env.TELEHEALTH_E2E_VIDEO_ZONE ??= lateMorningZone()),
              // Every video test books the demo patient at the next free half hour, and a visit held keeps its time: seven
              // tests take seven half hours, all of which must be open to join when their test runs.
              VIDEO_JOIN_EARLY_MINUTES: '240',
              TURN_URLS: `turn:127.0.0.1:${VIDEO_SERVER.turn.port}?transport=udp`,
              TURN_SECRET: VIDEO_SERVER.turn.secret,
            },
            timeout: 120_000 * SLOW_MACHINE,
            reuseExistingServer: false,
            stdout: 'pipe',
            stderr: 'pipe',
            gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
          },
          {
            name: 'short-session-server',
            command: 'node ../apps/server/src/main.ts',
            cwd: '.',
            url: `${SHORT_SESSION_SERVER.url}/api/health`,
            // Without the practice's public settings, as the demo starts out of the box: its own demo defaults apply.
            env: withoutPracticeSettings(serverEnv(SHORT_SESSION_SERVER, dataDir('server-3101'))),
            timeout: 120_000 * SLOW_MACHINE,
            reuseExistingServer: false,
            stdout: 'pipe',
            stderr: 'pipe',
            gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
          },
        ],
});
