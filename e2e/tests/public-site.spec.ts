import type { Page } from '@playwright/test';
import { DASHBOARD_HEADINGS, DEMO_CLINIC_PHONE, PATIENT_SERVICES } from '@telehealth/shared';
import { demoAccount, expect, submitSignInForm, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { PRACTICE_SETTINGS, SHORT_SESSION_SERVER } from '../support/servers.ts';

const { clinicPhone: CLINIC_PHONE, bookingUrl: BOOKING_URL, contactEmail: CONTACT_EMAIL } = PRACTICE_SETTINGS;

/** The page as a server that wrote no configuration into it would send it (and its appConfig query failing). */
async function withoutConfiguration(page: Page): Promise<void> {
  await page.route(
    (url) => !url.pathname.startsWith('/assets/') && !url.pathname.startsWith('/graphql'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const body = (await response.text()).replace(/<meta name="app-bootstrap"[^>]*>/, '');
      return route.fulfill({ response, body });
    },
  );
  await page.route('**/graphql', async (route) => {
    if ((route.request().postData() ?? '').includes('query AppConfig')) await route.abort();
    else await route.fallback();
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
  await expect(page.getByRole('link', { name: 'Express interest by email' })).toHaveAttribute(
    'href',
    new RegExp(`^mailto:${CONTACT_EMAIL}\\?subject=`),
  );
  await expect(page.getByRole('link', { name: CONTACT_EMAIL })).toHaveAttribute('href', `mailto:${CONTACT_EMAIL}`);

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

test('no page the menus lead to says a service is not offered that the request form offers', async ({ page }) => {
  await page.goto('/');
  const menus = [
    ['For Patients', ['How care works', 'Services and programs', 'Insurance and billing']],
    ['For Providers', ['Refer or collaborate', 'Research partnerships']],
  ] as const;
  const targets: string[] = [];
  for (const [menu, items] of menus) {
    await page.getByRole('button', { name: menu }).click();
    for (const item of items) {
      targets.push((await page.getByRole('link', { name: item }).getAttribute('href')) ?? '');
    }
    await page.keyboard.press('Escape');
  }
  expect(targets).toEqual([
    '/home',
    '/home#services',
    '/coming-soon#insurance',
    '/coming-soon#providers',
    '/coming-soon#research',
  ]);
  for (const target of new Set(targets.map((href) => href.split('#')[0] ?? href))) {
    await page.goto(target);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('main')).not.toContainText(/not offered/i);
    for (const service of PATIENT_SERVICES) {
      // On /coming-soon no offered service appears at all; on /home each is listed as offered.
      if (target === '/coming-soon') await expect(page.locator('main')).not.toContainText(service);
    }
  }

  await page.goto('/');
  await page.getByRole('button', { name: 'For Patients' }).click();
  await page.getByRole('link', { name: 'Services and programs' }).click();
  const services = page.locator('#services');
  await expect(services.getByRole('heading', { name: 'What we offer' })).toBeVisible();
  for (const service of PATIENT_SERVICES) await expect(services).toContainText(service);
  await expect(page.getByRole('link', { name: 'Request access as a patient' })).toHaveAttribute(
    'href',
    '/request-access/patient',
  );
});

test.describe('a practice without a booking page', () => {
  // This server starts without CLINIC_PHONE and BOOKING_URL, as the demo does out of the box.
  test.use({ baseURL: SHORT_SESSION_SERVER.url });

  test('the banner calls the demo number and asks for an appointment through the patient form', async ({ page }) => {
    await page.goto('/');
    const banner = page.getByTestId('emergency-banner');
    await expect(banner.getByRole('link', { name: `Call ${DEMO_CLINIC_PHONE}` })).toHaveAttribute(
      'href',
      'tel:2125550123',
    );
    await expect(banner.getByRole('link', { name: /Schedule Appointment/ })).toHaveCount(0);
    await banner.getByRole('link', { name: 'Request an Appointment' }).click();
    await expect(page).toHaveURL(/\/request-access\/patient$/);
    await expect(page.getByRole('heading', { name: 'Request patient access' })).toBeVisible();
    // Already on the form: the banner does not point to itself.
    await expect(banner.getByRole('link', { name: 'Request an Appointment' })).toHaveCount(0);
    await expect(banner.getByRole('link', { name: `Call ${DEMO_CLINIC_PHONE}` })).toBeVisible();

    await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await expect(banner.getByRole('link', { name: 'Solicitar una cita' })).toHaveAttribute(
      'href',
      '/request-access/patient',
    );
    await expectFitsPhone(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test('the crisis lines stay when the configuration cannot be loaded', async ({ page }) => {
  await withoutConfiguration(page);
  for (const path of ['/', '/login']) {
    await page.goto(path);
    await expect(page.getByRole('link', { name: /988/ }).first()).toHaveAttribute('href', 'tel:988');
    await expect(page.getByRole('link', { name: /911/ }).first()).toHaveAttribute('href', 'tel:911');
    await expect(page.getByTestId('emergency-banner')).toHaveCount(0);
  }
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

test('the public site is its own small page; its links lead into the app', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Our philosophy' })).toBeVisible();
  // The single-page app's entry (vite.config.ts input `app`): router, forms, query cache and schemas.
  expect(scripts.filter((path) => /^\/assets\/app-[\w-]+\.js$/.test(path))).toEqual([]);
  expect(scripts.some((path) => /^\/assets\/site-[\w-]+\.js$/.test(path))).toBe(true);

  // The sign-in page is part of the site too (decision 013); signing in loads the app.
  await page.getByRole('button', { name: 'Contact & Login' }).click();
  await page.getByRole('link', { name: 'Patient Login' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  expect(scripts.filter((path) => /^\/assets\/app-[\w-]+\.js$/.test(path))).toEqual([]);

  await submitSignInForm(page, demoAccount('patient').email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS.patient })).toBeVisible();
  expect(scripts.some((path) => /^\/assets\/app-[\w-]+\.js$/.test(path))).toBe(true);
});

test('the pages keep to the Content-Security-Policy (nothing tries a blocked script, style or eval)', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
  });
  for (const path of ['/', '/login', '/forgot-password']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual(
      [],
    );
  }
});

/** Mantine classes (`m_…`) on the page that no loaded stylesheet has a rule for. */
async function unstyledMantineClasses(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const defined = new Set<string>();
    const visit = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule)
          for (const m of rule.selectorText.matchAll(/\.(m_[0-9a-f]+)/g)) defined.add(m[1] ?? '');
        if ('cssRules' in rule) visit((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) visit(sheet.cssRules);
    const used = new Set(
      Array.from(document.querySelectorAll('[class]')).flatMap((element) =>
        Array.from(element.classList).filter((name) => /^m_[0-9a-f]+$/.test(name)),
      ),
    );
    return [...used].filter((name) => !defined.has(name));
  });
}

test('the signed-out screens have the styles of every Mantine component they show', async ({ page }) => {
  const missing = new Set<string>();
  const check = async () => {
    for (const name of await unstyledMantineClasses(page)) missing.add(name);
  };
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Email is required').first()).toBeVisible();
  await check();
  for (const kind of ["I'm a Healthcare Provider", "I'm a Patient"]) {
    await page.goto('/login');
    await page.getByRole('button', { name: kind }).click();
    // The patient form's submit waits for the consent.
    if (kind === "I'm a Patient") await page.getByRole('checkbox', { name: /I agree/ }).check();
    await page.getByRole('button', { name: /^Submit/ }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await check();
  }
  for (const path of ['/forgot-password', '/reset-password', '/invite']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await check();
  }
  expect([...missing]).toEqual([]);
});

test('the public pages have no serious accessibility violations', async ({ page }) => {
  // One page visits them in turn (a test each made a browser context and loaded the site afresh for every one).
  for (const path of ['/', '/login', '/home', '/coming-soon', '/request-access/provider', '/request-access/patient']) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.getByTestId('emergency-banner').or(page.getByRole('contentinfo'))).not.toHaveCount(0);
      expect(await seriousViolations(page), path).toEqual([]);
    });
  }
});
