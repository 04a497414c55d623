import type { Page } from '@playwright/test';

import { uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { clippedFields, withWideTimeFont } from '../support/fields.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { within } from '../support/budget.ts';

/*
 * Decision 050. The browser tests' practice is in New York (PRACTICE_TIME_ZONE's default): its times carry the zone's
 * short name on a device elsewhere, and none on a device in New York.
 */

/** The first state after a navigation on a shared machine. */
const SETTLED = within(30_000);
/** A visit's time as the practice wrote it, with New York's short name: EST/EDT in English, GMT-5/-4 in Spanish. */
const LABELLED = { en: /^\d\d:\d\d (EST|EDT)$/, es: /^\d\d:\d\d GMT-[45]$/ } as const;
const CLOCK_LABELLED = { en: / (EST|EDT)$/, es: / GMT-[45]$/ } as const;

async function inSpanish(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
}

test.describe('on a device in Madrid', () => {
  test.use({ timezoneId: 'Europe/Madrid', viewport: PHONE });

  for (const language of ['en', 'es'] as const) {
    test(`the patient's dashboard names the practice's zone beside visit times and the clock (${language})`, async ({
      page,
      signInAs,
    }) => {
      test.slow();
      if (language === 'es') await inSpanish(page);
      await signInAs('patient');
      await page.goto('/dashboard');
      const lines = page.getByTestId('dashboard-appointment');
      await expect(lines.first()).toBeVisible(SETTLED);
      await expect(lines.first().locator('strong')).toHaveText(LABELLED[language]);
      await expect(page.getByTestId('clock-time')).toHaveText(CLOCK_LABELLED[language]);
      await expectFitsPhone(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});

test.describe('on a device in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test("the patient's dashboard shows visit times and the clock without a zone", async ({ page, signInAs }) => {
    await signInAs('patient');
    await page.goto('/dashboard');
    const lines = page.getByTestId('dashboard-appointment');
    await expect(lines.first()).toBeVisible(SETTLED);
    await expect(lines.first().locator('strong')).toHaveText(/^\d\d:\d\d$/);
    await expect(page.getByTestId('clock-time')).not.toHaveText(/[A-Z]{3}|GMT/);
  });
});

test('an administrator filters the audit trail by a patient found by name, or by a pasted record id', async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const origin = new URL(baseURL ?? '').origin;
  const lastName = `Zoned${uniqueLetters()}`;
  // A provider registers the patient (PATIENT_CREATE names the record).
  const providerContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const provider = await providerContext.newPage();
  await signInByApi(provider, 'provider2@demo.test', origin);
  const { createPatient } = await graphqlData<{ createPatient: { id: string } }>(
    provider.request,
    origin,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    {
      input: {
        firstName: 'Rhea',
        lastName,
        email: `rhea.${lastName}@example.net`.toLowerCase(),
        dateOfBirth: '1984-06-02',
      },
    },
  );
  await providerContext.close();

  await signInByApi(page, 'admin@demo.test', origin);
  await page.goto('/admin/security');
  const rows = page.getByTestId('audit-entry-row');
  await expect(rows.first()).toBeVisible(SETTLED);
  const patientField = page.getByRole('combobox', { name: 'Patient' });
  await patientField.fill(lastName.slice(0, 9));
  await page.getByRole('option', { name: `Rhea ${lastName}`, exact: true }).click();
  await expect(patientField).toHaveValue(`Rhea ${lastName}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // Only this patient's entries: their registration among them, no sign-in (which names no patient).
  await expect(rows.filter({ hasText: 'Patient registered' }).filter({ hasText: 'Daniel Reyes' })).toHaveCount(1);
  await expect(rows.filter({ hasText: /signed in/i })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // The record id still works: pasted, offered as itself, the same entries.
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(patientField).toHaveValue('');
  await patientField.fill(createPatient.id);
  await page.getByRole('option', { name: `Record id ${createPatient.id}`, exact: true }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(rows.filter({ hasText: 'Patient registered' }).filter({ hasText: 'Daniel Reyes' })).toHaveCount(1);
  await expect(rows.filter({ hasText: /signed in/i })).toHaveCount(0);
});

test.describe('the provider’s working hours', () => {
  test.use({ viewport: PHONE });

  for (const language of ['en', 'es'] as const) {
    test(`show their times whole on a phone (${language})`, async ({ page, signInAs }, testInfo) => {
      if (language === 'es') await inSpanish(page);
      // A wider platform font for times, and larger text: a fixed-width field cut "08:00 AM" to "08:00 A" there.
      await withWideTimeFont(page, 20);
      await signInAs('provider');
      await page.goto('/availability');
      const hours = page.getByRole('region', { name: language === 'en' ? 'Weekly working hours' : 'Horario semanal' });
      await expect(hours.getByLabel(language === 'en' ? /From$/ : /Desde$/).first()).toBeVisible(SETTLED);
      await hours.screenshot({ path: testInfo.outputPath(`availability-390-${language}.png`) });
      expect(await clippedFields(page)).toEqual([]);
      // Every text field's text fits its box as well.
      const overflowing = await hours
        .locator('input')
        .evaluateAll((inputs) =>
          (inputs as HTMLInputElement[]).filter((i) => i.scrollWidth > i.clientWidth).map((i) => i.value),
        );
      expect(overflowing).toEqual([]);
      await expectFitsPhone(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
