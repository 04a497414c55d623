import { DASHBOARD_HEADINGS, MESSAGES } from '@telehealth/shared';
import { demoAccount, expect, signIn, test } from '../support/fixtures.ts';
import { followRequests, waitForQuiet } from '../support/requests.ts';

// The main test server ends a session after 15 idle minutes; the warning comes a minute before that.
const UNTIL_WARNING = '14:05';

test('the idle warning keeps the session on request and signs out when ignored', async ({ page }) => {
  // The browser's clock is fake from the start, so that 15 idle minutes pass in an instant.
  await page.clock.install();
  const activity = followRequests(page);
  await signIn(page, demoAccount('provider').email);
  const heading = page.getByRole('heading', { name: DASHBOARD_HEADINGS.provider });
  await expect(heading).toBeVisible();

  // The idle time counts from the app's last request: on a busy machine the dashboard's last queries may still be
  // on their way when its heading shows, and one ending after the jump would move the warning 14 minutes on.
  await waitForQuiet(activity);
  await page.clock.fastForward(UNTIL_WARNING);
  const dialog = page.getByRole('dialog');
  const staySignedIn = dialog.getByRole('button', { name: 'Stay signed in' });
  await expect(staySignedIn).toBeVisible();

  await staySignedIn.click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(heading).toBeVisible();

  // Idle again: the warning returns after the same time, and once the full 15 minutes have passed unanswered
  // the app signs out.
  await waitForQuiet(activity);
  await page.clock.fastForward(UNTIL_WARNING);
  await expect(staySignedIn).toBeVisible();
  await page.clock.fastForward('01:00');

  await expect(page).toHaveURL(/\/login(\?.*)?$/);
  await expect(page.getByText(MESSAGES.sessionExpired)).toBeVisible();
});
