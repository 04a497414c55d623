import fs from 'node:fs';
import { uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { within } from '../support/budget.ts';
import { keepScreenshot } from '../support/screenshots.ts';

test('an auditor asks who opened a patient’s record: from the chart to the audit trail, the entry’s detail, the chain verified, the record downloaded as FHIR; Spanish on a phone', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  // Two people in two browsers, axe three times, on a shared machine.
  test.slow();
  const origin = new URL(baseURL ?? '').origin;
  const suffix = uniqueLetters();
  const lastName = `Audit${suffix}`;

  // A provider creates a patient and opens the chart in the browser.
  const providerContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const provider = await providerContext.newPage();
  await signInByApi(provider, 'provider2@demo.test', origin);
  const { createPatient } = await graphqlData<{ createPatient: { id: string } }>(
    provider.request,
    origin,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName: 'Quinn', lastName, email: `quinn.${suffix}@example.net`, dateOfBirth: '1979-04-12' } },
  );
  const patientId = createPatient.id;
  await provider.goto(`/patients/${patientId}`);
  await expect(provider.getByRole('heading', { name: `Quinn ${lastName}`, level: 1 })).toBeVisible();
  await providerContext.close();

  // The administrator opens the same chart, and from it the audit trail searched for this patient.
  await signInByApi(page, 'admin@demo.test', origin);
  await page.goto(`/patients/${patientId}`);
  const recordAdmin = page.getByRole('region', { name: 'Record administration' });
  await expect(recordAdmin).toBeVisible();

  // The patient's right of access: the record as a FHIR Bundle, with the patient in it.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    recordAdmin.getByRole('link', { name: 'Download the record (FHIR)' }).click(),
  ]);
  const bundle = JSON.parse(fs.readFileSync((await download.path()) ?? '', 'utf8')) as {
    resourceType: string;
    entry: { resource: { resourceType: string; id: string; name?: { family: string }[] } }[];
  };
  expect(bundle.resourceType).toBe('Bundle');
  const patient = bundle.entry.find((e) => e.resource.resourceType === 'Patient')?.resource;
  expect(patient?.name?.[0]?.family).toBe(lastName);

  await recordAdmin.getByRole('link', { name: 'Who opened this record' }).click();
  await expect(page).toHaveURL(/\/admin\/security\?/);
  // The patient filter holds the record id it was opened with (a name is typed to choose another patient).
  await expect(page.getByRole('combobox', { name: 'Patient' })).toHaveValue(`Record id ${patientId}`);
  const rows = page.getByTestId('audit-entry-row');
  // The provider's chart view, the administrator's own, and the export: each names this patient.
  const providerView = rows.filter({ hasText: 'Daniel Reyes' }).filter({ hasText: 'PATIENT_CHART_VIEW' });
  await expect(providerView.first()).toBeVisible();
  await expect(rows.filter({ hasText: 'Avery Admin' }).filter({ hasText: 'PHI_EXPORT' }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The entry's whole detail.
  await providerView
    .first()
    .getByRole('button', { name: /^Details of Patient chart opened/ })
    .click();
  const drawer = page.getByRole('dialog', { name: 'Audit entry' });
  await expect(drawer).toContainText('provider2@demo.test');
  await expect(drawer).toContainText(patientId);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // Narrowed to one person and one event.
  await page.getByRole('textbox', { name: 'Person' }).fill('provider2@demo.test');
  await page.getByRole('combobox', { name: 'Event' }).fill('PATIENT_CHART_VIEW');
  await page.getByRole('option', { name: 'Patient chart opened', exact: true }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // Only that person's views of charts remain (this patient's filter stays on).
  await expect(rows.first()).toContainText('Daniel Reyes');
  await expect(rows.filter({ hasText: 'Avery Admin' })).toHaveCount(0);

  // Verify the chain now: the result, recorded.
  await page.getByRole('button', { name: 'Verify the chain now' }).click();
  await expect(page.getByText('The audit chain verifies')).toBeVisible(within(30_000));

  // Spanish, at phone width.
  await page.goto('/home');
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/patients/${patientId}`);
  await page.getByRole('link', { name: 'Quién abrió este expediente' }).click();
  await expect(page.getByRole('combobox', { name: 'Paciente' })).toHaveValue(`Id de expediente ${patientId}`);
  await expect(rows.filter({ hasText: 'Daniel Reyes' }).first()).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo.outputPath('admin-security-390-es.png'));
});

test('the audit trail names its events in the reader’s language, with the code beside; the event filter finds a name or a code; Spanish on a phone', async ({
  page,
  signInAs,
}) => {
  await signInAs('admin');
  await page.goto('/admin/security');
  const rows = page.getByTestId('audit-entry-row');
  await expect(rows.first()).toBeVisible();

  // The event filter lists names; a code typed finds its name, and so does a part of the name.
  const eventField = page.getByRole('combobox', { name: 'Event' });
  await eventField.fill('ACCESS_REQUEST_VIEW');
  await expect(page.getByRole('option', { name: 'Access request viewed', exact: true })).toBeVisible();
  await eventField.fill('administrator signed');
  await page.getByRole('option', { name: 'Administrator signed in', exact: true }).click();
  await expect(eventField).toHaveValue('Administrator signed in');
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  // This administrator's sign-in (and any other's) reads as words, its code still beneath.
  await expect(rows.filter({ hasNotText: 'ADMIN_LOGIN' })).toHaveCount(0);
  const signIn = rows.first();
  await expect(signIn).toContainText('Administrator signed in');
  await expect(signIn).toContainText('ADMIN_LOGIN');
  await signIn.getByRole('button', { name: /^Details of Administrator signed in at / }).click();
  const drawer = page.getByRole('dialog', { name: 'Audit entry' });
  await expect(drawer).toContainText('Administrator signed in');
  await expect(drawer.getByText('ADMIN_LOGIN', { exact: true })).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // Spanish, at phone width.
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await page.setViewportSize(PHONE);
  await page.goto('/admin/security');
  const evento = page.getByRole('combobox', { name: 'Evento' });
  await evento.fill('solicitud de acceso');
  await expect(page.getByRole('option', { name: 'Solicitud de acceso consultada', exact: true })).toBeVisible();
  await evento.fill('ADMIN_LOGIN');
  await page.getByRole('option', { name: 'Inicio de sesión de administrador', exact: true }).click();
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await expect(rows.filter({ hasNotText: 'ADMIN_LOGIN' })).toHaveCount(0);
  await expect(rows.first()).toContainText('Inicio de sesión de administrador');
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
});
