import { DASHBOARD_HEADINGS, MESSAGES } from '@telehealth/shared';
import { SHORT_SESSION_SERVER } from '../support/servers.ts';
import { demoAccount, expect, signIn, test } from '../support/fixtures.ts';
import { followRequests, waitForIdle } from '../support/requests.ts';

// This server ends a session after a few seconds without a request (6, or 15 in CI).
test.use({ baseURL: SHORT_SESSION_SERVER.url });

const IDLE_MS = SHORT_SESSION_SERVER.sessionIdleMinutes * 60_000;
const LOGIN_URL = /\/login(\?.*)?$/;

test('when the server has ended the session the app goes to /login saying the session expired', async ({
  page,
  currentUser,
}) => {
  const activity = followRequests(page);
  await signIn(page, demoAccount('provider').email);
  await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.provider })).toBeVisible();

  // The only timed wait in the suite: the server's idle time-out is the thing under test, counted from the page's
  // last request (on a busy machine the dashboard's last queries may end after its heading shows).
  await waitForIdle(activity, IDLE_MS + 2_000);

  await expect(page).toHaveURL(LOGIN_URL);
  await expect(page.getByText(MESSAGES.sessionExpired)).toBeVisible();
  // Moving on within the app does not bring the session back.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(LOGIN_URL);
  expect(await currentUser()).toBeNull();
});

test('the server ends an idle session by itself, whatever the browser does', async ({ page, currentUser }) => {
  // The browser's clock stands still, so the app's own idle timer never runs out and never signs out: only
  // the server's automatic logoff can end this session.
  await page.clock.setFixedTime(new Date());
  const activity = followRequests(page);
  await signIn(page, demoAccount('provider').email);
  await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.provider })).toBeVisible();
  expect(await currentUser()).not.toBeNull();
  activity.endedNow();

  await waitForIdle(activity, IDLE_MS + 2_000);

  expect(await currentUser()).toBeNull();
  await page.reload();
  await expect(page).toHaveURL(LOGIN_URL);
});
