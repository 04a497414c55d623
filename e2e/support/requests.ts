import type { Page, Request } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * The page's requests that reach the server's session: the API, never the built files, and never the live socket
 * (`/api/live`), which stays open for as long as the page does.
 */
function reachesSession(request: Request): boolean {
  if (request.resourceType() === 'websocket') return false;
  const { pathname, protocol } = new URL(request.url());
  return (protocol === 'http:' || protocol === 'https:') && (pathname === '/graphql' || pathname.startsWith('/api/'));
}

export interface RequestActivity {
  /** API requests sent and not yet answered (or failed). */
  inFlight(): number;
  /** The runner's time at which the last API request ended: the server had seen it by then. */
  lastEndedAt(): number;
  /** Counts a request the page did not send (`page.request`, which shares its cookies) as just ended. */
  endedNow(): void;
}

/**
 * Follows a page's API requests from now on, so that a test of idle time can start counting when the page has
 * really gone quiet: on a busy machine a page's last queries may still be on their way after what it shows is
 * visible, and each one moves the session's deadline.
 */
export function followRequests(page: Page): RequestActivity {
  let inFlight = 0;
  let lastEndedAt = Date.now();
  page.on('request', (request) => {
    if (reachesSession(request)) inFlight += 1;
  });
  const ended = (request: Request) => {
    if (!reachesSession(request)) return;
    inFlight -= 1;
    lastEndedAt = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    inFlight: () => inFlight,
    lastEndedAt: () => lastEndedAt,
    endedNow: () => {
      lastEndedAt = Date.now();
    },
  };
}

/** Waits until no API request of the page is under way. */
export async function waitForQuiet(activity: RequestActivity): Promise<void> {
  await expect.poll(() => activity.inFlight()).toBe(0);
}

/**
 * Waits until the page has sent no API request for `ms` (real time): the idle time itself is what the caller
 * tests, counted from the end of the page's last request, however late that came.
 */
export async function waitForIdle(activity: RequestActivity, ms: number): Promise<void> {
  for (;;) {
    await waitForQuiet(activity);
    const remaining = activity.lastEndedAt() + ms - Date.now();
    if (remaining <= 0 && activity.inFlight() === 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(remaining, 50)));
  }
}
