/**
 * Coding a visit and the patient's ledger (issue 30; decision 073): a provider codes a completed video visit (its
 * place of service 10 and modifier 95 proposed) and sees the charge in the chart's Billing section; an
 * administrator records the payment and the balance shows $0.00. Each screen is scanned with axe, and the chart's
 * billing fits a phone. The patient, the diagnosis and the visit are made through the API (a visit seen now, then
 * completed), as the app allows.
 */
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { createPatientRecord, signedInRequest } from '../support/records.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;
const IDENTITY = {
  legalName: 'Harbor Psychiatry PLLC',
  street: '12 Main Street',
  city: 'Albany',
  state: 'NY',
  zip: '12207',
  taxId: '12-3456789',
};

test('a provider codes a completed video visit and sees the charge; an administrator records the payment', async ({
  page,
}) => {
  test.setTimeout(scaled(150_000));
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  const patient = await createPatientRecord(page.request, ORIGIN, { firstName: 'Bela' });
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }',
    {
      input: { patientId: patient.id, code: 'F33.1', status: 'active' },
    },
  );
  // An unscheduled video visit starting now, then completed, as the provider does after the call.
  const { seeNow } = await graphqlData<{ seeNow: { id: string; date: string } }>(
    page.request,
    ORIGIN,
    'mutation ($input: SeeNowInput!) { seeNow(input: $input) { id date } }',
    { input: { patientId: patient.id } },
  );
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: SetAppointmentStatusInput!) { setAppointmentStatus(input: $input) { id } }',
    { input: { id: seeNow.id, status: 'completed' } },
  );

  // The visit's details, opened from the calendar: the coding proposes place 10 and modifier 95.
  await page.goto(`/calendar?date=${seeNow.date}&appointment=${seeNow.id}`);
  const details = page.getByRole('dialog', { name: 'Appointment details' });
  const coding = details.getByRole('region', { name: 'Visit coding' });
  await coding.getByRole('button', { name: 'Code visit' }).click(within(30_000));
  const form = coding.getByRole('form', { name: 'Code the visit' });
  await expect(form.getByRole('radio', { name: /^10 · / })).toBeChecked();
  await expect(form.getByRole('textbox', { name: /Modifiers/ })).toHaveValue('95');
  await expect(form.getByRole('checkbox', { name: /^A\. F33\.1/ })).toBeChecked();
  await form
    .getByRole('combobox', { name: /Service 1/ })
    .selectOption({ label: '99214 · Follow-up visit, moderate · $175.00' });
  await expect(form.getByTestId('coding-total')).toHaveText('Total: $175.00');
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, test.info().outputPath('visit-coding.png'), { fullPage: false });
  await form.getByRole('button', { name: 'Save coding' }).click();
  await expect(coding.getByTestId('coding-summary')).toContainText('99214-95');
  await expect(coding.getByRole('button', { name: 'Change coding' })).toBeVisible();

  // The visit's superbill from the coding: it needs the practice's billing identity (an administrator's setting)
  // and the provider's NPI (their own profile), both set through the API here.
  const admin = await signedInRequest(ORIGIN, 'admin@demo.test');
  try {
    await graphqlData(
      admin,
      ORIGIN,
      'mutation ($input: UpdatePracticeSettingsInput!) { updatePracticeSettings(input: $input) { values { practiceName } } }',
      { input: { billingIdentity: IDENTITY } },
    );
  } finally {
    await admin.dispose();
  }
  const { me } = await graphqlData<{ me: { userId: string } }>(page.request, ORIGIN, '{ me { userId } }');
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($id: ID!, $input: ProviderBillingInput!) { updateProviderBilling(providerId: $id, input: $input) { npi } }',
    {
      id: me.userId,
      input: { npi: '1234567893', taxonomyCode: '2084P0800X', licenseState: 'NY', licenseNumber: '301234' },
    },
  );
  const superbill = page.waitForEvent('download');
  await coding.getByRole('button', { name: 'Download the superbill' }).click();
  expect((await superbill).suggestedFilename()).toBe(`superbill-${seeNow.date}.pdf`);

  // The chart's Billing section: the charge with its code, the balance.
  await page.goto(`/patients/${patient.id}`);
  const billing = page.getByRole('region', { name: 'Billing', exact: true });
  await expect(billing.getByTestId('ledger-balance')).toHaveText('Balance: $175.00', within(30_000));
  const charge = billing.getByTestId('ledger-entry').filter({ hasText: '99214-95' });
  await expect(charge).toContainText('$175.00');
  await expect(charge).toContainText('Charge');

  // An administrator records the payment: the balance is $0.00.
  await signInByApi(page, 'admin@demo.test', ORIGIN);
  await page.goto(`/patients/${patient.id}`);
  await billing.getByRole('button', { name: 'Record payment' }).click(within(30_000));
  const payment = page.getByRole('dialog', { name: 'Record payment' });
  await payment.getByRole('textbox', { name: /Amount/ }).fill('175');
  await payment.getByRole('combobox', { name: /Method/ }).selectOption('card');
  await payment.getByRole('textbox', { name: /Reference/ }).fill('R-2026');
  expect(await seriousViolations(page)).toEqual([]);
  await payment.getByRole('button', { name: 'Record payment' }).click();
  await expect(payment).toHaveCount(0);
  await expect(billing.getByTestId('ledger-balance')).toHaveText('Balance: $0.00');
  await expect(billing.getByTestId('ledger-entry').filter({ hasText: 'Payment' })).toContainText('-$175.00');
  expect(await seriousViolations(page)).toEqual([]);
  await billing.scrollIntoViewIfNeeded();
  await keepScreenshot(page, test.info().outputPath('chart-billing.png'), { fullPage: false });

  // On a phone the ledger scrolls within its section; the page itself does not.
  await page.setViewportSize(PHONE);
  await billing.scrollIntoViewIfNeeded();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, test.info().outputPath('chart-billing-390.png'), { fullPage: false });
});
