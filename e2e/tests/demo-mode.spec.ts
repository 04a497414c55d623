import { DASHBOARD_HEADINGS, DEMO_ACCOUNTS } from '@telehealth/shared';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { demoAccount, expect, fullName, signInByApi, test, type DemoAccount } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { within } from '../support/budget.ts';

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

test('the demo patient’s chart opens with signed notes and a PHQ-9 trend over months (issue 25)', async ({ page }) => {
  const provider = demoAccount('provider');
  await signInByApi(page, provider.email, MAIN_SERVER.url);
  const found = await graphqlData<{ listPatients: { items: { id: string }[] } }>(
    page.request,
    MAIN_SERVER.url,
    'query { listPatients(filter: { search: "patient@demo.test" }) { items { id } } }',
  );
  await page.goto(`/patients/${found.listPatients.items[0]!.id}`);

  // Notes the demo seed wrote and signed after the visits: other tests only add their own.
  const signed = page
    .getByRole('article')
    .filter({ hasText: new RegExp(`Signed by ${escapeRegExp(fullName(provider))} on `) });
  // The chart's route loads the charting bundle first: on a busy machine that takes longer than one check.
  await expect(signed.first()).toBeVisible(within(30_000));
  await expect(page.getByRole('article', { name: 'Risk assessment after PHQ-9' })).toBeVisible();
  // The PHQ-9's chart, and its results over the months in the table beside it.
  await expect(page.getByTestId('measure-chart-phq9').first()).toBeVisible();
  const phq9 = page.getByTestId('measure-result').filter({ hasText: 'PHQ-9' });
  await expect(phq9.nth(5)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);
  await expect(signed.first()).toBeVisible();
  await expectFitsPhone(page);
});
