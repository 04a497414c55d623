import type { Page, Request } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * The page's GraphQL requests: each one moves the session's deadline, on the server and in the app's idle timer.
 * Not the live socket, open for the page's life, nor the audit queue's keep-alive posts to /api/audit/logs, whose
 * end Chromium never reports.
 */
function reachesSession(request: Request): boolean {
  const { pathname, protocol } = new URL(request.url());
  return (protocol === 'http:' || protocol === 'https:') && pathname === '/graphql';
}

export interface RequestActivity {
  /** GraphQL requests sent and not yet answered (or failed). */
  inFlight(): number;
  /** The runner's time at which the last GraphQL request ended: the server had seen it by then. */
  lastEndedAt(): number;
  /** Counts a request the page did not send (`page.request`, which shares its cookies) as just ended. */
  endedNow(): void;
}

/**
 * Follows a page's GraphQL requests from now on, so that a test of idle time can start counting when the page has
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

/** Waits until no GraphQL request of the page is under way. */
export async function waitForQuiet(activity: RequestActivity): Promise<void> {
  await expect.poll(() => activity.inFlight()).toBe(0);
}

/**
 * Waits until the page has had no GraphQL request for `ms` (real time): the idle time itself is what the caller
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
