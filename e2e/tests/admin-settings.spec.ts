import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { PRACTICE_SETTINGS, VIDEO_SERVER } from '../support/servers.ts';
import { clippedFields, withWideTimeFont } from '../support/fields.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { keepScreenshot } from '../support/screenshots.ts';

/*
 * Against the video tests' server: a practice setting is practice-wide, and no test on that server looks at the
 * clinic phone, while the main server's public-site and booking tests do (they run beside this one).
 */
const ORIGIN = VIDEO_SERVER.url;
test.use({ baseURL: ORIGIN });

const NEW_PHONE = '(555) 010-0142';
const RESET = 'mutation { resetPracticeSetting(key: "clinicPhone") { values { clinicPhone } } }';

test('an administrator changes the clinic phone, the site uses it at once, and resets it to the default', async ({
  page,
  browser,
}, testInfo) => {
  // A large form, checked twice by axe, on a shared machine.
  test.slow();
  await signInByApi(page, 'admin@demo.test', ORIGIN);
  try {
    await page.goto('/admin/settings');
    await expect(page.getByRole('heading', { name: 'Practice settings', level: 1 })).toBeVisible();
    const source = page.getByTestId('setting-source-clinicPhone');
    await expect(source).toContainText('Environment default (CLINIC_PHONE)');
    const phone = page.getByRole('textbox', { name: 'Clinic phone' });
    await expect(phone).toHaveValue(PRACTICE_SETTINGS.clinicPhone);
    expect(await seriousViolations(page)).toEqual([]);

    await phone.fill(NEW_PHONE);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
    await expect(source).toContainText('Changed by Avery Admin');

    // Applied at once: a visitor's landing page (its emergency banner) dials the new number, without a restart.
    const visitor = await browser.newContext({ baseURL: ORIGIN });
    const landing = await visitor.newPage();
    await landing.goto('/');
    await expect(landing.getByRole('link', { name: `Call ${NEW_PHONE}` })).toHaveAttribute('href', 'tel:5550100142');
    await visitor.close();

    // Spanish, chosen with the public pages' language switcher and remembered.
    await page.goto('/home');
    await page.getByRole('button', { name: 'Español' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.goto('/admin/settings');
    await expect(page.getByRole('heading', { name: 'Ajustes de la consulta', level: 1 })).toBeVisible();
    await expect(source).toContainText('Cambiado por Avery Admin');

    // At phone width: nothing wider than the screen, still usable.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('button', { name: 'Guardar cambios' })).toBeVisible();
    await expectFitsPhone(page);
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, testInfo.outputPath('admin-settings-390.png'), { fullPage: false });

    await page.getByRole('button', { name: 'Restablecer valor predeterminado: Teléfono de la clínica' }).click();
    await expect(source).toContainText('Predeterminado del entorno (CLINIC_PHONE)');
    await expect(page.getByRole('textbox', { name: 'Teléfono de la clínica' })).toHaveValue(
      PRACTICE_SETTINGS.clinicPhone,
    );
  } finally {
    // Whatever happened above, the server keeps its configured number for the other tests.
    await page.request.post('/graphql', { headers: { origin: ORIGIN }, data: { query: RESET } });
  }
});

test('the default working hours show their times whole, on a laptop and on a phone, in English and Spanish', async ({
  page,
}, testInfo) => {
  test.slow();
  await signInByApi(page, 'admin@demo.test', ORIGIN);
  // A time's width depends on the platform's font: this machine's is narrow, so the fields take a wider one, as
  // some platforms' are (a field of a fixed width cut "08:00 AM" to "08:00 A" there).
  await withWideTimeFont(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/admin/settings');
  const hours = page.getByRole('region', { name: 'Default working hours' });
  await expect(hours.getByLabel('From').first()).toBeVisible();
  await hours.screenshot({ path: testInfo.outputPath('working-hours-1366-en.png') });
  expect(await clippedFields(page)).toEqual([]);

  await page.setViewportSize(PHONE);
  await expect(hours.getByLabel('From').first()).toBeVisible();
  await expectFitsPhone(page);
  expect(await clippedFields(page)).toEqual([]);

  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await page.goto('/admin/settings');
  const horas = page.getByRole('region', { name: 'Horario laboral predeterminado' });
  await expect(horas.getByLabel('Desde').first()).toBeVisible();
  await expectFitsPhone(page);
  await horas.screenshot({ path: testInfo.outputPath('working-hours-390-es.png') });
  expect(await clippedFields(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 900 });
  await expect(horas.getByLabel('Desde').first()).toBeVisible();
  expect(await clippedFields(page)).toEqual([]);
});
