/**
 * The two servers the browser tests run against, shared by the Playwright config and the tests.
 * Both are the real production server (apps/server/src/main.ts) serving the built web app.
 */
export const MAIN_SERVER = {
  port: 3100,
  url: 'http://127.0.0.1:3100',
  /**
   * Each server runs its own embedded PostgreSQL; the default port would make the two collide. Below Linux's
   * ephemeral range (32768-60999): a port in it can be taken at any moment by an outgoing connection's local end.
   */
  embeddedPgPort: 25_431,
  sessionIdleMinutes: 15,
} as const;

/** A server whose sessions end after 6 seconds without a request, for the "server ended the session" test. */
export const SHORT_SESSION_SERVER = {
  port: 3101,
  url: 'http://127.0.0.1:3101',
  embeddedPgPort: 25_432,
  sessionIdleMinutes: 0.1,
} as const;

/** The practice's public settings the main server is started with (playwright.config.ts), as a real one would be. */
export const PRACTICE_SETTINGS = {
  clinicPhone: '(555) 010-0199',
  bookingUrl: 'https://booking.example.com/emergency',
  contactEmail: 'hello@practice.example',
} as const;
