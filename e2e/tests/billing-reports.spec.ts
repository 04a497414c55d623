import fs from 'node:fs';
import { DEFAULT_PRACTICE_TIME_ZONE, todayIn } from '@telehealth/shared';

import { seriousViolations } from '../support/axe.ts';
import { demoAccount, expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlCall, graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { createPatientRecord, signedInRequest } from '../support/records.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { scaled } from '../support/budget.ts';

const SEE_NOW = 'mutation ($input: SeeNowInput!) { seeNow(input: $input) { id date } }';
const SET_STATUS = 'mutation ($input: SetAppointmentStatusInput!) { setAppointmentStatus(input: $input) { status } }';

// The browser tests have no way to write ledger entries (coding a visit is another screen's API), so the figures
// table is checked in its empty state here; its sums are the server tests' (apps/server/test/billing-reports.test.ts).
test('an administrator opens the billing reports: this month’s figures by provider, the aging and the uncoded visits; CSV; on a phone in Spanish', async ({
  page,
  browser,
  signInAs,
  baseURL,
}) => {
  test.setTimeout(scaled(180_000));
  const origin = new URL(baseURL ?? '').origin;

  // A visit completed today and not coded: a provider sees a new patient of theirs now, and completes the visit.
  async function seeAndComplete(email: string) {
    const request = await signedInRequest(origin, email);
    try {
      const patient = await createPatientRecord(request, origin, { firstName: 'Bea' });
      const seen = await graphqlCall<{ seeNow: { id: string; date: string } }>(request, origin, SEE_NOW, {
        input: { patientId: patient.id },
      });
      // The provider is in another visit now (PROVIDER_BUSY): the other one is asked.
      if (!seen.data) return null;
      await graphqlData(request, origin, SET_STATUS, { input: { id: seen.data.seeNow.id, status: 'completed' } });
      return { ...seen.data.seeNow, patientName: patient.name };
    } finally {
      await request.dispose();
    }
  }
  const completed =
    (await seeAndComplete(demoAccount('provider').email)) ?? (await seeAndComplete('provider2@demo.test'));
  if (!completed) throw new Error('neither demo provider is free for a visit now');
  const patientName = completed.patientName;

  const admin = await signInAs('admin');
  await page.goto('/admin/reports');
  const billing = page.getByRole('region', { name: 'Billing', exact: true });
  await expect(billing.getByRole('heading', { level: 2, name: 'Billing' })).toBeVisible();
  // This month by default.
  const today = todayIn(DEFAULT_PRACTICE_TIME_ZONE);
  await expect(billing.getByLabel('First day')).toHaveValue(`${today.slice(0, 7)}-01`);
  await expect(billing.getByLabel('Balances on')).toHaveValue(today);

  // By provider and month: the table with its totals (empty here: nothing was billed through the browser).
  const figures = billing.getByTestId('billing-by-month');
  await expect(figures.getByRole('columnheader', { name: 'Charges' })).toBeVisible();
  await expect(figures.getByRole('rowheader', { name: 'Total' })).toBeVisible();
  await expect(figures.locator('tfoot')).toContainText('$');
  await expect(billing.getByRole('heading', { name: 'Outstanding balances by age' })).toBeVisible();

  // The visit completed today is listed, and opens on the calendar.
  const link = billing.getByRole('link', { name: new RegExp(`^${completed.date} · ${patientName} · `) });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', `/calendar?date=${completed.date}&appointment=${completed.id}`);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, test.info().outputPath('billing-reports.png'), { fullPage: true });

  const download = page.waitForEvent('download');
  await billing.getByRole('button', { name: 'Download CSV: Visits completed but not coded' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^uncoded-visits-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs.readFileSync(await file.path(), 'utf8').split('\r\n');
  expect(lines[0]).toBe('date,startsAt,appointmentId,providerId,provider,patientId,patient');
  expect(lines.find((line) => line.includes(completed.id))).toContain(patientName);

  // A phone, in Spanish.
  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  await context.addInitScript(() => {
    localStorage.setItem('telehealth.language', 'es');
  });
  const phone = await context.newPage();
  await signInByApi(phone, admin.email, origin);
  await phone.goto('/admin/reports');
  const facturacion = phone.getByRole('region', { name: 'Facturación', exact: true });
  await expect(
    facturacion.getByRole('heading', { name: 'Cargos, pagos y ajustes por profesional y mes' }),
  ).toBeVisible();
  await expect(facturacion.getByRole('link', { name: new RegExp(`· ${patientName} ·`) })).toBeVisible();
  await facturacion.scrollIntoViewIfNeeded();
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await keepScreenshot(phone, test.info().outputPath('billing-reports-390.png'), { fullPage: true });
  await context.close();
});
