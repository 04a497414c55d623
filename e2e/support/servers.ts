/**
 * The two servers the browser tests run against, shared by the Playwright config and the tests.
 * Both are the real production server (apps/server/src/main.ts) serving the built web app.
 */
export const MAIN_SERVER = {
  port: 3100,
  url: 'http://127.0.0.1:3100',
  /** Each server runs its own embedded PostgreSQL; the default port would make the two collide. */
  embeddedPgPort: 55_431,
  sessionIdleMinutes: 15,
} as const;

/** A server whose sessions end after 6 seconds without a request, for the "server ended the session" test. */
export const SHORT_SESSION_SERVER = {
  port: 3101,
  url: 'http://127.0.0.1:3101',
  embeddedPgPort: 55_432,
  sessionIdleMinutes: 0.1,
} as const;
