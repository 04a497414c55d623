import { DEMO_CLINIC_PHONE } from '@telehealth/shared';
import type { Page } from '@playwright/test';

import { seriousViolations } from '../support/axe.ts';
import { demoAccount, expect, fullName, signInByApi, test } from '../support/fixtures.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { bookVisit, createPatientRecord, createPortalPatient, signedInRequest } from '../support/records.ts';
import { SHORT_SESSION_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';

// Each test makes its own patient of the first demo provider, with visits booked by that provider.
const CLINICIAN = fullName(demoAccount('provider'));
/** The first state after a navigation: the calendar's chunk is large, and this machine is shared. */
const SETTLED = within(30_000);

async function inSpanish(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
}

test.describe('the portal names the clinician', () => {
  test.use({ viewport: PHONE });

  for (const language of ['en', 'es'] as const) {
    test(`a patient's dashboard and calendar label each visit with the clinician, not the patient (${language})`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(scaled(120_000));
      const origin = new URL(baseURL ?? '').origin;
      const patient = await createPortalPatient(origin);
      const provider = await signedInRequest(origin, demoAccount('provider').email);
      await bookVisit(provider, origin, patient.id);
      await bookVisit(provider, origin, patient.id, { daysAhead: 2 });
      await provider.dispose();
      if (language === 'es') await inSpanish(page);
      await signInByApi(page, patient.email, origin, patient.password);

      await page.goto('/dashboard');
      const lines = page.getByTestId('dashboard-appointment');
      await expect(lines.first()).toBeVisible(SETTLED);
      await expect(lines.filter({ hasText: CLINICIAN }).first()).toBeVisible();
      await expect(lines.filter({ hasText: patient.name })).toHaveCount(0);
      await expectFitsPhone(page);
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto('/calendar');
      const calendar = page.getByTestId('calendar');
      // The events' titles (the month's cells clip them on a phone, so their text is what is checked).
      await expect(calendar).toContainText(CLINICIAN, SETTLED);
      await expect(calendar).not.toContainText(patient.name);
      const cards = page.getByTestId('appointment-card');
      await expect(cards.first()).toContainText(CLINICIAN);
      await expect(cards.filter({ hasText: patient.name })).toHaveCount(0);
      await expectFitsPhone(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test('a provider still sees the patient on the calendar', async ({ page, signInAs, baseURL }) => {
    await signInAs('provider');
    const origin = new URL(baseURL ?? '').origin;
    const patient = await createPatientRecord(page.request, origin);
    const visit = await bookVisit(page.request, origin, patient.id);
    // The visit's day on its own: a month cell shows two visits and "+N more" for a busy provider's day.
    await page.goto(`/calendar?date=${visit.date}`);
    await page.getByRole('tab', { name: 'Day view' }).click();
    await expect(page.getByTestId('calendar')).toContainText(patient.name, SETTLED);
  });
});

test.describe('pages a role cannot use answer Access Denied', () => {
  test.use({ viewport: PHONE });
  test.setTimeout(scaled(120_000));

  test('a patient typing a staff address gets Access Denied, not a failed load', async ({ page, signInAs }) => {
    await signInAs('patient');
    for (const path of ['/notes', '/patients', '/patients/new', '/appointments/new', '/availability', '/waitlist']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Access Denied', level: 1 }), path).toBeVisible(SETTLED);
      await expect(page.getByText('Failed to load notes')).toHaveCount(0);
    }
    await page.goto('/notes');
    await expect(page.getByText(/The notes your providers share with you are in My Records/)).toBeVisible();
    await expectFitsPhone(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('in Spanish too, and a patient opening a chart address is refused the same way', async ({ page, signInAs }) => {
    await inSpanish(page);
    await signInAs('patient');
    await page.goto('/notes');
    await expect(page.getByRole('heading', { name: 'Acceso denegado', level: 1 })).toBeVisible();
    await expect(page.getByText(/están en Mis registros/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/patients/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Acceso denegado', level: 1 })).toBeVisible();
  });

  test('a provider typing an administrator or patient-portal address gets Access Denied', async ({
    page,
    signInAs,
  }) => {
    await signInAs('provider');
    for (const path of ['/admin', '/admin/users', '/admin/settings', '/my/records', '/my/appointments']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Access Denied', level: 1 }), path).toBeVisible(SETTLED);
    }
  });
});

test.describe('the demo has a clinic number to call', () => {
  // This server starts without CLINIC_PHONE, as the demo does out of the box.
  test.use({ baseURL: SHORT_SESSION_SERVER.url, viewport: PHONE });

  test('the emergency banner calls the demo practice’s fictional number, in English and Spanish', async ({ page }) => {
    await page.goto('/login');
    const banner = page.getByTestId('emergency-banner');
    const call = banner.getByRole('link', { name: `Call ${DEMO_CLINIC_PHONE}` });
    await expect(call).toHaveAttribute('href', `tel:${DEMO_CLINIC_PHONE.replace(/[^\d+]/g, '')}`);
    await expectFitsPhone(page);
    expect(await seriousViolations(page)).toEqual([]);

    await inSpanish(page);
    await page.goto('/login');
    await expect(banner.getByRole('link', { name: `Llamar al ${DEMO_CLINIC_PHONE}` })).toHaveAttribute(
      'href',
      /^tel:\d+$/,
    );
    await expectFitsPhone(page);
  });
});
