import { seriousViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { keepScreenshot } from '../support/screenshots.ts';

/*
 * Setting up billing (issue 30, decision 073): the administrator fills the practice's billing identity in Settings,
 * changes a fee in the fee schedule and sets a provider's NPI (a wrong check digit is refused at the field first).
 * The fee changed is 90785's (an add-on no other test codes with) and the NPI is Daniel Reyes's, one no other test
 * uses; the identity is the practice's, which other tests only need to be filled.
 */

test('an administrator sets up billing: the identity, a fee, a provider’s NPI', async ({
  page,
  signInAs,
}, testInfo) => {
  // Three screens, each scanned by axe, on a shared machine.
  test.slow();
  await signInAs('admin');

  // The practice's billing identity, in Settings: half of it is refused, then the whole.
  await page.goto('/admin/settings');
  const billing = page.getByRole('region', { name: 'Billing' });
  await billing.getByRole('textbox', { name: 'Legal name' }).fill('Meridian Precision Psychiatry PLLC');
  await billing.getByRole('textbox', { name: 'City' }).fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(billing.getByRole('textbox', { name: 'City' })).toHaveAccessibleDescription('City is required');
  await billing.getByRole('textbox', { name: 'Street' }).fill('410 Harbor Avenue');
  await billing.getByRole('textbox', { name: 'City' }).fill('Portland');
  await billing.getByRole('textbox', { name: /State/ }).fill('OR');
  await billing.getByRole('textbox', { name: 'ZIP code' }).fill('97201');
  await billing.getByRole('textbox', { name: /Tax id/ }).fill('931234567');
  await billing.getByRole('radio', { name: 'Code a visit once it is completed' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  await expect(billing.getByRole('textbox', { name: /Tax id/ })).toHaveValue('93-1234567');
  expect(await seriousViolations(page)).toEqual([]);

  // The fee schedule: the starting services are examples to review; changing one's fee makes it the practice's.
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Fee schedule' }).click();
  await expect(page.getByRole('heading', { name: 'Fee schedule', level: 1 })).toBeVisible();
  await expect(
    page.getByText("Short names are the practice's own; the AMA's descriptions are not shipped."),
  ).toBeVisible();
  const row = page.getByTestId('fee-item-90785');
  await expect(row).toContainText('Interactive complexity');
  await row.getByRole('button', { name: 'Change 90785' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change 90785' });
  const fee = dialog.getByRole('textbox', { name: 'Fee' });
  await fee.fill('twenty');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(fee).toHaveAccessibleDescription(/Enter an amount such as 150 or 150.00/);
  await fee.fill('24.5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: '90785 saved.' })).toBeVisible();
  await expect(row).toContainText('$24.50');
  await expect(row).not.toContainText('Example, review');
  expect(await seriousViolations(page)).toEqual([]);

  // A provider's NPI, from their card: a wrong check digit is refused before the server is asked.
  await page.goto('/doctors');
  const daniel = page.getByRole('article', { name: 'Daniel Reyes' });
  await daniel.getByRole('button', { name: 'Billing identity of Daniel Reyes' }).click();
  const identity = page.getByRole('dialog', { name: 'Billing identity: Daniel Reyes' });
  const npi = identity.getByRole('textbox', { name: /NPI/ });
  await npi.fill('1922034561');
  await identity.getByRole('textbox', { name: /Taxonomy code/ }).fill('2084P0800X');
  await identity.getByRole('textbox', { name: /Licence state/ }).fill('OR');
  await identity.getByRole('textbox', { name: /Licence number/ }).fill('MD-204518');
  await identity.getByRole('button', { name: 'Save billing identity' }).click();
  await expect(npi).toHaveAccessibleDescription(/Enter a 10-digit NPI whose check digit is right/);
  await npi.fill('1922034560');
  await identity.getByRole('button', { name: 'Save billing identity' }).click();
  await expect(identity.getByRole('status').filter({ hasText: 'Billing identity saved.' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo.outputPath('provider-billing.png'), { fullPage: false });
});

test('the fee schedule on a phone, in English and Spanish', async ({ page, signInAs }, testInfo) => {
  test.slow();
  await signInAs('admin');
  await page.setViewportSize(PHONE);
  await page.goto('/admin/fee-schedule');
  await expect(page.getByTestId('fee-item-90791')).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo.outputPath('fee-schedule-390-en.png'));

  // Spanish, as the language switcher remembers it (this browser only; the account's language is left alone).
  await page.evaluate(() => localStorage.setItem('telehealth.language', 'es'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: 'Lista de tarifas', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Agregar un servicio' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar un servicio' });
  await expect(dialog.getByRole('textbox', { name: 'Tarifa' })).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo.outputPath('fee-schedule-390-es.png'), { fullPage: false });
});

test('a provider keeps their own billing identity in My account, on a phone', async ({ page, signInAs }, testInfo) => {
  test.slow();
  await signInAs('provider');
  await page.setViewportSize(PHONE);
  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'Billing identity' });
  await expect(card.getByRole('textbox', { name: /Taxonomy code/ })).toBeVisible();
  await expect(card.getByText('Such as 2084P0800X (psychiatry)')).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo.outputPath('my-account-billing-390.png'));
});
