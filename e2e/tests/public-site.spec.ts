import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.html.slice(0, 160)}`));
}

const CLINIC_PHONE = '(555) 010-0199';
const BOOKING_URL = 'https://booking.example.com/emergency';

/** The test servers configure no clinic phone or booking page: add them to the appConfig answer. */
async function withBannerConfig(page: Page): Promise<void> {
  await page.route('**/graphql', async (route) => {
    const body = route.request().postData() ?? '';
    if (!body.includes('query AppConfig')) {
      await route.fallback();
      return;
    }
    const response = await route.fetch();
    const json = (await response.json()) as { data: { appConfig: Record<string, unknown> } };
    json.data.appConfig['clinicPhone'] = CLINIC_PHONE;
    json.data.appConfig['bookingUrl'] = BOOKING_URL;
    json.data.appConfig['emergencyBanner'] = { enabled: true, heading: null, body: null };
    await route.fulfill({ response, json });
  });
}

test('the landing page has its sections, the crisis lines and working menus', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const name of ['Our philosophy', 'What makes us different', 'Beta program', 'Contact']) {
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: /988/ }).first()).toHaveAttribute('href', 'tel:988');
  await expect(page.getByRole('link', { name: /911/ }).first()).toHaveAttribute('href', 'tel:911');
  await expect(page.getByRole('link', { name: 'Express interest by email' })).toHaveAttribute('href', /^mailto:/);

  // The dropdown opens from the keyboard, closes on Escape, and its items lead to real pages.
  const menuButton = page.getByRole('button', { name: 'Contact & Login' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await page.getByRole('link', { name: 'Provider Login' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/');
  await page.getByRole('button', { name: 'For Providers' }).click();
  await page.getByRole('link', { name: 'Refer or collaborate' }).click();
  await expect(page.getByRole('heading', { name: 'Services in preparation', level: 1 })).toBeVisible();

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { name: 'About the practice', level: 1 })).toBeVisible();

  await page.goto('/');
  await page.getByRole('link', { name: 'Platform Access' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the emergency banner calls the clinic and opens the booking page in a new tab', async ({ page }) => {
  await withBannerConfig(page);
  for (const path of ['/', '/login']) {
    await page.goto(path);
    const banner = page.getByTestId('emergency-banner');
    await expect(banner.getByRole('heading', { name: 'Free emergency community support' })).toBeVisible();
    await expect(banner.getByText('All appointments related to this event are at no cost.')).toBeVisible();
    await expect(banner.getByRole('link', { name: `Call ${CLINIC_PHONE}` })).toHaveAttribute('href', 'tel:5550100199');
    const schedule = banner.getByRole('link', { name: /Schedule Appointment/ });
    await expect(schedule).toHaveAttribute('href', BOOKING_URL);
    await expect(schedule).toHaveAttribute('target', '_blank');
    await expect(schedule).toHaveAttribute('rel', 'noopener');
  }
});

test('the crisis lines stay when the configuration cannot be loaded', async ({ page }) => {
  await page.route('**/graphql', async (route) => {
    if ((route.request().postData() ?? '').includes('query AppConfig')) await route.abort();
    else await route.fallback();
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: /988/ }).first()).toHaveAttribute('href', 'tel:988');
  await expect(page.getByRole('link', { name: /911/ }).first()).toHaveAttribute('href', 'tel:911');
  await expect(page.getByTestId('emergency-banner')).toHaveCount(0);
});

test('Spanish can be chosen, is remembered, and the patient form follows it', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.getByRole('heading', { name: 'Nuestra filosofía' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Inicie sesión en su cuenta' })).toBeVisible();
  await page.getByRole('button', { name: 'Soy paciente' }).click();
  await expect(page.getByRole('heading', { name: 'Solicitar acceso como paciente' })).toBeVisible();
  await expect(page.getByLabel(/^Idioma preferido/)).toHaveValue('spanish');

  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByLabel(/^Language preference/)).toHaveValue('english');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

for (const path of ['/', '/login', '/home', '/coming-soon']) {
  test(`${path} has no serious accessibility violations`, async ({ page }) => {
    await withBannerConfig(page);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByTestId('emergency-banner').or(page.getByRole('contentinfo'))).not.toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
