import { DASHBOARD_HEADINGS, DEMO_ACCOUNTS, MESSAGES, ROLE_LABELS, ROLES } from '@telehealth/shared';
import { demoAccount, expect, fullName, signIn, submitSignInForm, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';

const LOGIN_URL = /\/login(\?.*)?$/;
const DASHBOARD_URL = /\/dashboard$/;

test.describe('each role reaches its dashboard', () => {
  for (const role of ROLES) {
    test(`${role} signs in through the form and sees the ${DASHBOARD_HEADINGS[role]}, with no serious accessibility violations`, async ({
      page,
    }) => {
      const account = demoAccount(role);
      await signIn(page, account.email);

      await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS[role] })).toBeVisible();
      const main = page.getByRole('main');
      await expect(main.getByText(ROLE_LABELS[role], { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('banner').getByText(fullName(account)).first()).toBeVisible();
      // The dashboard as it is after signing in (it was a test of its own, which loaded it again to scan it).
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});

test.describe('redirects', () => {
  test('signed out, /dashboard, /patients, /admin and an unknown path go to /login', async ({ page }) => {
    for (const path of ['/dashboard', '/patients', '/admin', '/no-such-page']) {
      await test.step(path, async () => {
        await page.goto(path);
        await expect(page).toHaveURL(LOGIN_URL);
        await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
      });
    }
  });

  test('signed in, /, /login and an unknown path go to /dashboard', async ({ page, signInAs }) => {
    await signInAs('provider');
    for (const path of ['/', '/login', '/no-such-page']) {
      await page.goto(path);
      await expect(page, `${path} should redirect`).toHaveURL(DASHBOARD_URL);
      await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.provider })).toBeVisible();
    }
  });
});

test('after signing in the user lands on the page first asked for', async ({ page }) => {
  await page.goto('/calendar');
  await expect(page).toHaveURL(LOGIN_URL);

  await submitSignInForm(page, demoAccount('provider').email);

  await expect(page).toHaveURL(/\/calendar$/);
});

test('signing out from the user menu ends the session on the server', async ({ page, currentUser }) => {
  const account = demoAccount('patient');
  await signIn(page, account.email);
  expect(await currentUser()).toEqual(expect.objectContaining({ email: account.email }));

  await page
    .getByRole('banner')
    .getByRole('button', { name: fullName(account) })
    .click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(page).toHaveURL(LOGIN_URL);
  await expect(page.getByRole('status')).toContainText('You have signed out.');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(LOGIN_URL);
  expect(await currentUser()).toBeNull();
});

test('a wrong password shows "Login failed" with "Invalid credentials"', async ({ page, currentUser }) => {
  // The second provider is used by no other test, so this failed attempt counts towards no one else's lockout.
  const secondProvider = DEMO_ACCOUNTS.filter((account) => account.role === 'provider')[1];
  if (!secondProvider) throw new Error('The demo accounts include a second provider');
  await page.goto('/login');
  await submitSignInForm(page, secondProvider.email, 'Wrong-Password-1!');

  const alert = page.getByRole('alert').filter({ hasText: MESSAGES.loginFailed });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(MESSAGES.invalidCredentials);
  await expect(page).toHaveURL(LOGIN_URL);
  expect(await currentUser()).toBeNull();
});

test.describe('the administrator console is for administrators', () => {
  for (const role of ['provider', 'patient'] as const) {
    test(`a ${role} visiting /admin sees Access Denied`, async ({ page, signInAs }) => {
      await signInAs(role);
      await page.goto('/admin');

      await expect(page.getByRole('heading', { name: MESSAGES.accessDenied })).toBeVisible();
      await expect(page.getByText(MESSAGES.adminRequired, { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'System Administration' })).toHaveCount(0);
    });
  }

  test('an administrator visiting /admin sees the console', async ({ page, signInAs }) => {
    await signInAs('admin');
    await page.goto('/admin');

    await expect(page.getByRole('heading', { name: 'System Administration' })).toBeVisible();
    await expect(page.getByRole('heading', { name: MESSAGES.accessDenied })).toHaveCount(0);
  });
});
