/**
 * The patient's billing page (issue 30; decision 073): a portal patient with a coded visit opens Billing from the
 * portal on a phone, sees what they owe and their account, downloads the visit's superbill (a PDF named by the
 * date, never by the patient) and the statement; the page in Spanish too. Axe on each. The visit, coded three days
 * ago, is written by support/billing.ts straight into the main server's database (see there why).
 */
import { addDays, todayIn } from '@telehealth/shared';
import { seriousViolations } from '../support/axe.ts';
import { insertCodedVisit, setProviderBilling } from '../support/billing.ts';
import { scaled, within } from '../support/budget.ts';
import { demoAccount, expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { bookVisit, createPortalPatient, signedInRequest } from '../support/records.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { MAIN_SERVER } from '../support/servers.ts';

const ORIGIN = MAIN_SERVER.url;
const IDENTITY = {
  legalName: 'Harbor Psychiatry PLLC',
  street: '12 Main Street',
  city: 'Albany',
  state: 'NY',
  zip: '12207',
  taxId: '12-3456789',
};

test('a patient opens Billing on a phone, sees the balance and downloads the superbill and the statement', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(180_000));
  const patient = await createPortalPatient(ORIGIN);
  const provider = await signedInRequest(ORIGIN, demoAccount('provider').email);
  const admin = await signedInRequest(ORIGIN, demoAccount('admin').email);
  const serviceDate = addDays(todayIn('America/New_York'), -3);
  try {
    const { me } = await graphqlData<{ me: { userId: string } }>(provider, ORIGIN, '{ me { userId } }');
    const visit = await bookVisit(provider, ORIGIN, patient.id);
    await graphqlData(
      admin,
      ORIGIN,
      'mutation ($input: UpdatePracticeSettingsInput!) { updatePracticeSettings(input: $input) { values { practiceName } } }',
      { input: { billingIdentity: IDENTITY } },
    );
    await setProviderBilling(me.userId);
    await insertCodedVisit({ appointmentId: visit.id, patientId: patient.id, providerId: me.userId, serviceDate });
  } finally {
    await provider.dispose();
    await admin.dispose();
  }

  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE, acceptDownloads: true });
  const page = await context.newPage();
  await signInByApi(page, patient.email, ORIGIN, patient.password);
  await page.goto('/dashboard');
  await page.getByRole('link', { name: /My billing/ }).click(within(30_000));
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByTestId('my-billing-balance')).toHaveText('You owe $175.00');
  await expect(page.getByRole('region', { name: 'Your account', exact: true })).toContainText('Service 99214');
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, 'test-results/billing-portal-en.png');

  const [superbill] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /^Download superbill for the visit on / }).click(),
  ]);
  expect(superbill.suggestedFilename()).toBe(`superbill-${serviceDate}.pdf`);
  const bytes = Buffer.concat(await (await superbill.createReadStream()).toArray());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

  const [statement] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download statement' }).click(),
  ]);
  expect(statement.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-\d{2}\.pdf$/);

  // A range with nothing billed is refused in words, and nothing is downloaded.
  await page.getByLabel('From').fill('2020-01-01');
  await page.getByLabel('To').fill('2020-01-31');
  await page.getByRole('button', { name: 'Download superbill for these dates' }).click();
  await expect(page.getByRole('alert')).toHaveText('There is nothing billed in this range');
  expect(await seriousViolations(page)).toEqual([]);

  // In Spanish: the patient's account language.
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: UpdateMyAccountInput!) { updateMyAccount(input: $input) { language } }',
    { input: { language: 'es' } },
  );
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Facturación', level: 1 })).toBeVisible();
  await expect(page.getByTestId('my-billing-balance')).toContainText('Debe');
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, 'test-results/billing-portal-es.png');
  await context.close();
});
