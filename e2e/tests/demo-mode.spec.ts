import { DASHBOARD_HEADINGS, DEMO_ACCOUNTS } from '@telehealth/shared';
import type { Page } from '@playwright/test';
import { demoAccount, expect, test, type DemoAccount } from '../support/fixtures.ts';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A quick sign-in button names its account by role label and email address. */
function quickSignInButton(page: Page, account: DemoAccount) {
  return page.getByRole('button', {
    name: new RegExp(`${escapeRegExp(account.label)}.*${escapeRegExp(account.email)}`),
  });
}

test('the login page offers a labelled quick sign-in for each demo account', async ({ page }) => {
  await page.goto('/login');
  for (const account of DEMO_ACCOUNTS) {
    await expect(quickSignInButton(page, account)).toBeVisible();
  }
});

test('a quick sign-in button signs in as that demo account', async ({ page, currentUser }) => {
  const patient = demoAccount('patient');
  await page.goto('/login');
  await quickSignInButton(page, patient).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.patient })).toBeVisible();
  expect(await currentUser()).toEqual(expect.objectContaining({ email: patient.email }));
});

test('"Switch to Admin" on the dashboard signs in as the admin demo account', async ({
  page,
  signInAs,
  currentUser,
}) => {
  await signInAs('patient');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.patient })).toBeVisible();

  await page.getByRole('button', { name: 'Switch to Admin' }).click();

  await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.admin })).toBeVisible();
  expect(await currentUser()).toEqual(expect.objectContaining({ email: demoAccount('admin').email }));
});
