import type { Browser, Page } from '@playwright/test';
import { addDays, todayIn } from '@telehealth/shared';
import { uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { linkFromOutbox } from '../support/outbox.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { MAIN_SERVER } from '../support/servers.ts';

// The times offered follow the provider's working hours (issue 25, decision 045): a provider who works from 06:00
// on Thursdays is offered 06:00 and books 06:30 and 19:30. A provider of its own, so that the demo providers'
// hours, which other specs count on, stay as they are.

const ORIGIN = MAIN_SERVER.url;
const ZONE = 'America/New_York';
const PASSWORD = 'Early-Hours-2026!';

interface Person {
  page: Page;
  lastName: string;
  close: () => Promise<void>;
}

/** A provider added by the administrator, their invitation accepted, signed in on a page of their own. */
async function newProvider(admin: Page, browser: Browser, options: { language?: 'es'; phone?: boolean } = {}) {
  const lastName = `Early${uniqueLetters()}`;
  const email = `alba.${lastName.toLowerCase()}@example.test`;
  await signInByApi(admin, 'admin@demo.test', ORIGIN);
  await graphqlData(
    admin.request,
    ORIGIN,
    'mutation ($input: CreateDoctorInput!) { createDoctor(input: $input) { id } }',
    {
      input: { firstName: 'Alba', lastName, email, specialty: 'Psychiatry', sendInvitation: true },
    },
  );
  const link = await linkFromOutbox(admin, email, 'Invitation');
  await graphqlData(
    admin.request,
    ORIGIN,
    'mutation ($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }',
    { t: link.split('#')[1] ?? '', p: PASSWORD },
  );
  const context = await browser.newContext({ baseURL: ORIGIN, ...(options.phone ? { viewport: PHONE } : {}) });
  const page = await context.newPage();
  if (options.language === 'es') await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await signInByApi(page, email, ORIGIN, PASSWORD);
  return { page, lastName, close: () => context.close() } satisfies Person;
}

/** A patient of the signed-in provider (named with letters only, as names must be). */
async function newPatient(page: Page): Promise<string> {
  const lastName = `Dawn${uniqueLetters()}`;
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    {
      input: {
        firstName: 'Lio',
        lastName,
        email: `lio.${lastName.toLowerCase()}@example.test`,
        dateOfBirth: '1985-06-07',
      },
    },
  );
  return lastName;
}

/** The first Thursday at least a week from today, in the practice's zone. */
function nextThursday(): string {
  let date = addDays(todayIn(ZONE), 7);
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 4) date = addDays(date, 1);
  return date;
}

/** Saves Thursday's hours as 06:00-20:00 on /availability (the other days keep the practice's default). */
async function workThursdayFromSix(page: Page, labels: { day: string; from: string; to: string; save: string }) {
  await page.goto('/availability');
  const from = page.getByLabel(`${labels.day}: ${labels.from}`);
  const to = page.getByLabel(`${labels.day}: ${labels.to}`);
  // The practice's default week is shown once the provider's hours have loaded.
  await expect(from).toHaveValue('08:00');
  await from.fill('06:00');
  await to.fill('20:00');
  await expect(from).toHaveValue('06:00');
  await expect(to).toHaveValue('20:00');
  await page.getByRole('button', { name: labels.save }).click();
}

async function bookThroughForm(page: Page, patient: string, date: string, time: string): Promise<void> {
  await page.goto('/appointments/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule New Appointment' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Patient' }).fill(patient);
  await page
    .getByRole('option', { name: `Lio ${patient}` })
    .first()
    .click();
  await page.getByLabel('Date').fill(date);
  await page.getByRole('combobox', { name: 'Time' }).click();
  await expect(page.getByRole('option', { name: '06:00', exact: true })).toBeVisible();
  // Before the hours and at their end: never offered.
  await expect(page.getByRole('option', { name: '05:30', exact: true })).toHaveCount(0);
  await expect(page.getByRole('option', { name: '20:00', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: time, exact: true }).click();
  await page.getByRole('textbox', { name: 'Reason for Visit' }).fill('Early follow-up');
  await page.getByRole('button', { name: 'Schedule Appointment' }).click();
  await expect(page.getByRole('heading', { name: 'Appointment Scheduled!' })).toBeVisible();
}

test('a provider working 06:00-20:00 on Thursdays is offered 06:00 and books 06:30 and 19:30', async ({
  page,
  browser,
}) => {
  // Adding a provider and accepting the invitation comes first.
  test.slow();
  const provider = await newProvider(page, browser);
  const patient = await newPatient(provider.page);
  const date = nextThursday();

  await workThursdayFromSix(provider.page, { day: 'Thursday', from: 'From', to: 'To', save: 'Save working hours' });
  await expect(provider.page.getByText('Working hours saved.')).toBeVisible();
  expect(await seriousViolations(provider.page)).toEqual([]);

  await bookThroughForm(provider.page, patient, date, '06:30');
  await bookThroughForm(provider.page, patient, date, '19:30');
  const { listAppointments } = await graphqlData<{ listAppointments: { items: { time: string }[] } }>(
    provider.page.request,
    ORIGIN,
    'query ($f: AppointmentFilterInput) { listAppointments(filter: $f) { items { time } } }',
    { f: { from: date, to: date } },
  );
  expect(listAppointments.items.map((a) => a.time).sort()).toEqual(['06:30', '19:30']);

  // The calendar's day reaches the hours worked.
  await provider.page.goto('/calendar');
  await provider.page.getByTestId('calendar').getByRole('tab', { name: /Day/ }).click();
  await expect(provider.page.getByTestId('calendar').getByText('06:00', { exact: true }).first()).toBeVisible();
  await provider.close();
});

test('in Spanish on a phone: the hours saved, the early times offered, the step among the settings', async ({
  page,
  browser,
}) => {
  test.slow();
  const provider = await newProvider(page, browser, { language: 'es', phone: true });
  const date = nextThursday();
  await workThursdayFromSix(provider.page, { day: 'Jueves', from: 'Desde', to: 'Hasta', save: 'Guardar horario' });
  await expect(provider.page.getByText('Horario guardado.')).toBeVisible();
  await expectFitsPhone(provider.page);
  expect(await seriousViolations(provider.page)).toEqual([]);

  await provider.page.goto('/appointments/new');
  await expect(provider.page.getByRole('heading', { level: 1, name: 'Programar nueva cita' })).toBeVisible();
  await expect(provider.page.getByRole('combobox', { name: 'Hora' })).toBeDisabled();
  await provider.page.getByLabel('Fecha').fill(date);
  await provider.page.getByRole('combobox', { name: 'Hora' }).click();
  await expect(provider.page.getByRole('option', { name: '06:00', exact: true })).toBeVisible();
  await expectFitsPhone(provider.page);
  // Judged once chosen: the open list scrolls inside Mantine's ScrollArea, which axe counts as a region without
  // keyboard access although the arrow keys move through it from the field (as before this change).
  await provider.page.getByRole('option', { name: '06:00', exact: true }).click();
  await expect(provider.page.getByRole('combobox', { name: 'Hora' })).toHaveValue('06:00');
  expect(await seriousViolations(provider.page)).toEqual([]);
  await provider.close();

  const admin = await browser.newContext({ baseURL: ORIGIN, viewport: PHONE });
  const adminPage = await admin.newPage();
  await adminPage.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await signInByApi(adminPage, 'admin@demo.test', ORIGIN);
  await adminPage.goto('/admin/settings');
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Ajustes de la consulta' })).toBeVisible();
  await expect(adminPage.getByRole('combobox', { name: /^Horas de inicio de las citas/ })).toHaveValue('30 minutos');
  await expectFitsPhone(adminPage);
  expect(await seriousViolations(adminPage)).toEqual([]);
  await admin.close();
});
