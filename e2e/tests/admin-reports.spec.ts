import fs from 'node:fs';
import { addDays, DEFAULT_PRACTICE_TIME_ZONE, todayIn } from '@telehealth/shared';

import { seriousViolations } from '../support/axe.ts';
import { demoAccount, expect, fullName, signInByApi, test } from '../support/fixtures.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { scaled } from '../support/budget.ts';
import { keepScreenshot } from '../support/screenshots.ts';

test('an administrator generates a compliance report, downloads it as CSV, prints it and sees the practice charts; on a phone in Spanish', async ({
  page,
  browser,
  signInAs,
  baseURL,
}) => {
  test.setTimeout(scaled(240_000));
  const origin = new URL(baseURL ?? '').origin;
  const admin = await signInAs('admin');
  // The last thirty days, today included: the sign-in just made (ADMIN_LOGIN) is in the period.
  const endDate = todayIn(DEFAULT_PRACTICE_TIME_ZONE);
  const startDate = addDays(endDate, -30);

  await page.goto('/admin/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  // The compliance report's period (the billing section below has dates of its own).
  const period = page.getByRole('group', { name: 'Period' });
  await period.getByLabel('First day').fill(startDate);
  await period.getByLabel('Last day').fill(endDate);
  await page.getByRole('button', { name: 'Show reports for this period' }).click();

  // The practice reports: charts, each with its table.
  await expect(page.getByRole('heading', { name: 'Appointments by status' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'PHQ-9 and GAD-7 over time' })).toBeVisible();
  await expect(page.getByTestId('practice-noShowRate')).toContainText('No-show rate');

  // The practice's outcomes for the same period (decision 064): the whole, then each grouping with its counts.
  const outcomes = page.getByRole('region', { name: 'Outcomes' });
  await expect(outcomes.getByTestId('outcomes-patients')).toContainText('Patients');
  await expect(outcomes.getByRole('heading', { name: 'By primary diagnosis' })).toBeVisible();
  await outcomes.getByText('GAD-7', { exact: true }).click();
  await expect(outcomes).toContainText('Counted: patients whose first GAD-7');
  await expect(outcomes.getByRole('heading', { name: 'By medication class started' })).toBeVisible();

  await page.getByRole('button', { name: 'Generate compliance report' }).click();
  const report = page.getByTestId('compliance-report');
  await expect(report.getByRole('heading', { name: 'Risk indicators' })).toBeVisible();
  await expect(report).toContainText(`by ${fullName(admin)}`);
  const total = Number((await page.getByTestId('figure-totalEvents').locator('dd').innerText()).replace(/\D/g, ''));
  expect(total).toBeGreaterThan(0);
  await expect(report.getByRole('table', { name: 'Audit entries of the period by event' })).toContainText(
    'ADMIN_LOGIN',
  );
  expect(await seriousViolations(page)).toEqual([]);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`compliance-report-${startDate}-to-${endDate}.csv`);
  const lines = fs.readFileSync(await file.path(), 'utf8').split('\r\n');
  expect(lines[0]).toBe('section,item,value,severity,userId,name,email,event,firstAt,lastAt');
  expect(lines).toContain(`summary,startDate,${startDate},,,,,,,`);
  expect(lines).toContain(`summary,endDate,${endDate},,,,,,,`);
  expect(lines.find((line) => line.startsWith('summary,generatedBy,'))).toContain(demoAccount('admin').email);
  expect(lines.some((line) => /^eventBreakdown,ADMIN_LOGIN,\d+,/.test(line))).toBe(true);
  expect(Number(/^summary,totalEvents,(\d+),/m.exec(lines.join('\n'))?.[1])).toBeGreaterThanOrEqual(total);

  // The printable page generates the report and opens the print dialog.
  await page.addInitScript(() => {
    window.print = () => {
      document.body.dataset['printed'] = 'yes';
    };
  });
  await page.goto(`/admin/reports/compliance/print?startDate=${startDate}&endDate=${endDate}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Compliance report' })).toBeVisible();
  await expect(page.getByTestId('compliance-report')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');

  // A phone, in Spanish (the browser's choice; the shared demo account's own language stays untouched).
  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  await context.addInitScript(() => {
    localStorage.setItem('telehealth.language', 'es');
  });
  const phone = await context.newPage();
  await signInByApi(phone, admin.email, origin);
  await phone.goto('/admin/reports');
  await expect(phone.getByRole('heading', { level: 1, name: 'Informes' })).toBeVisible();
  await phone.getByRole('button', { name: 'Generar informe de cumplimiento' }).click();
  await expect(phone.getByRole('heading', { name: 'Indicadores de riesgo' })).toBeVisible();
  await expect(phone.getByRole('heading', { name: 'Citas por estado' })).toBeVisible();
  await expect(phone.getByRole('heading', { name: 'Resultados clínicos' })).toBeVisible();
  await expect(phone.getByRole('heading', { name: 'Por diagnóstico principal' })).toBeVisible();
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await keepScreenshot(phone, test.info().outputPath('admin-reports-390.png'));
  await context.close();
});

test('a provider reads their own patients’ outcomes of the last 12 months on the dashboard; an administrator has no such card', async ({
  page,
  signInAs,
}) => {
  await signInAs('provider');
  await page.goto('/dashboard');
  const card = page.getByRole('region', { name: "Your patients' outcomes (last 12 months)" });
  await expect(card.getByTestId('my-outcomes')).toContainText('PHQ-9');
  await expect(card.getByTestId('my-outcomes')).toContainText('GAD-7');
  await expect(card.getByRole('link')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  await signInAs('admin');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: "Your patients' outcomes (last 12 months)" })).toHaveCount(0);
});
