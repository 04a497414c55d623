/**
 * Added to every port below (`E2E_PORT_OFFSET`, default 0), so that two runs of the browser tests can share one
 * machine (two checkouts, or a run beside CI's): each then has its own servers, PostgreSQL and TURN ports.
 */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const port = (base: number) => base + OFFSET;

/**
 * The two servers the browser tests run against, shared by the Playwright config and the tests.
 * Both are the real production server (apps/server/src/main.ts) serving the built web app.
 */
export const MAIN_SERVER = {
  port: port(3100),
  url: `http://127.0.0.1:${port(3100)}`,
  /**
   * Each server runs its own embedded PostgreSQL; the default port would make the two collide. Below Linux's
   * ephemeral range (32768-60999): a port in it can be taken at any moment by an outgoing connection's local end.
   */
  embeddedPgPort: port(25_431),
  sessionIdleMinutes: 15,
} as const;

/**
 * A server whose sessions end after 6 seconds without a request (15 in CI, where a busy machine was seen taking
 * more than 6 seconds between a page's requests: decision 055), for the "server ended the session" test. It
 * starts without the practice's public settings (no CLINIC_PHONE, BOOKING_URL, CONTACT_EMAIL), so its public
 * pages show what a demo shows out of the box.
 */
export const SHORT_SESSION_SERVER = {
  port: port(3101),
  url: `http://127.0.0.1:${port(3101)}`,
  embeddedPgPort: port(25_432),
  sessionIdleMinutes: process.env.CI ? 0.25 : 0.1,
} as const;

/** The practice's public settings the main server is started with (playwright.config.ts), as a real one would be. */
export const PRACTICE_SETTINGS = {
  clinicPhone: '(555) 010-0199',
  bookingUrl: 'https://booking.example.com/emergency',
  contactEmail: 'hello@practice.example',
} as const;

/**
 * The server of the video tests: a practice time zone in which it is late morning now (so that a visit can be
 * booked on the time grid and joined whatever the hour of the run), a wide join window, and coturn (started by
 * the relay test on loopback) as its TURN server.
 */
export const VIDEO_SERVER = {
  port: port(3102),
  url: `http://127.0.0.1:${port(3102)}`,
  embeddedPgPort: port(25_433),
  sessionIdleMinutes: 15,
  turn: { port: port(34_780), secret: 'e2e-turn-secret-0123456789abcdef' },
} as const;

/** The IANA zone (Etc/GMT±N) in which the local time now is between 10:00 and 11:00. */
export function lateMorningZone(now = new Date()): string {
  const offset = ((10 - now.getUTCHours() + 36) % 24) - 12;
  if (offset === 0) return 'Etc/GMT';
  // Etc/GMT signs are inverted: Etc/GMT-3 is three hours ahead of UTC.
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/**
 * The cluster tests' own servers (e2e/support/cluster.ts, decision 072): two instances on one PostgreSQL behind
 * HAProxy, started by the test file itself (it stops, restarts and kills them), not by Playwright's webServer.
 */
export const CLUSTER = {
  // Within the ten ports a run's offset owns (E2E_PORT_OFFSET moves runs ten apart).
  proxyPort: port(3103),
  url: `http://127.0.0.1:${port(3103)}`,
  instancePorts: [port(3104), port(3105)],
  databasePort: port(25_434),
} as const;
