import type { Browser, Page } from '@playwright/test';
import { addDays, APPOINTMENT_TIMES, todayIn, zonedInstant } from '@telehealth/shared';
import { approvePatientRequest, submitPatientRequest, uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlCall, graphqlData } from '../support/graphql.ts';
import { mailTextFromOutbox } from '../support/outbox.ts';
import { MAIN_SERVER, PRACTICE_SETTINGS } from '../support/servers.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';

// A patient books, sees and cancels their own visits from the portal, on a phone.
// The main server's practice is in America/New_York with the default policy (instant booking, 24 hours' notice
// and window, 90 days ahead). Each test makes its own patient; the bookings land 60 to 88 days ahead at the day's
// last free time, where the other specs (which book from tomorrow on, before 16:30) never look.

const ORIGIN = MAIN_SERVER.url;
const ZONE = 'America/New_York';
const PASSWORD = 'Portal-Pass-2026!';

interface PortalPatient {
  page: Page;
  email: string;
  close: () => Promise<void>;
}

/**
 * A patient of Maya Okafor with an account of their own (an access request approved by the administrator on
 * `admin`, its invitation accepted), signed in on a phone-sized page, optionally in Spanish.
 */
async function newPortalPatient(admin: Page, browser: Browser, language: 'en' | 'es' = 'en'): Promise<PortalPatient> {
  const person = {
    firstName: 'Rosa',
    lastName: `Portal${uniqueLetters()}`,
    email: `rosa.${uniqueLetters()}@example.test`,
  };
  await submitPatientRequest(admin.request, ORIGIN, person);
  await signInByApi(admin, 'admin@demo.test', ORIGIN);
  await approvePatientRequest(admin, person, 'Maya Okafor');
  const invitation = await mailTextFromOutbox(admin, person.email, 'Invitation');
  const token = /\/invite#([^\s]+)/.exec(invitation)?.[1] ?? '';
  expect(token).not.toBe('');
  await graphqlData(
    admin.request,
    ORIGIN,
    'mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }',
    {
      t: token,
      p: PASSWORD,
    },
  );
  const context = await browser.newContext({ baseURL: ORIGIN, viewport: PHONE });
  const page = await context.newPage();
  if (language === 'es') await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await signInByApi(page, person.email, ORIGIN, PASSWORD);
  return { page, email: person.email, close: () => context.close() };
}

/** A weekday 60 to 88 days ahead and its last open time for the patient's own provider. */
async function farOpenTime(page: Page): Promise<{ date: string; time: string }> {
  for (let offset = 60; offset < 89; offset++) {
    const date = addDays(todayIn(ZONE), offset);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const { myAvailableSlots } = await graphqlData<{ myAvailableSlots: { time: string; available: boolean }[] }>(
      page.request,
      ORIGIN,
      'query ($d: String!) { myAvailableSlots(date: $d) { time available } }',
      { d: date },
    );
    const free = myAvailableSlots.filter((slot) => slot.available);
    if (free.length > 0) return { date, time: free.at(-1)!.time };
  }
  throw new Error('no open time 60 to 88 days ahead');
}

const fullDay = (date: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

test('a patient on a phone books an open time, sees it in My Appointments and cancels it within the policy', async ({
  page,
  browser,
}) => {
  const patient = await newPortalPatient(page, browser);
  const phone = patient.page;
  const { date, time } = await farOpenTime(phone);

  // From the dashboard's card to the page.
  await phone.goto('/dashboard');
  await phone.getByRole('link', { name: 'See all, book or change a visit' }).click();
  await expect(phone).toHaveURL(/\/my\/appointments$/);
  await expect(phone.getByRole('heading', { level: 1, name: 'My Appointments' })).toBeVisible();
  await expect(phone.getByText('You have no upcoming visits.')).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);

  // Book: kind, date, one of the open times the server offers, the reason.
  await phone.getByRole('button', { name: 'Book a visit' }).click();
  await phone.getByRole('radio', { name: 'Video visit' }).check();
  await phone.getByRole('button', { name: 'Book this visit' }).click();
  await expect(phone.getByText('Choose a date to see the open times.')).toBeVisible();
  await phone.getByLabel('Date').fill(date);
  await phone.getByTestId('open-times').getByRole('radio', { name: time, exact: true }).check();
  await phone.getByRole('textbox', { name: 'Reason for the visit' }).fill('Sleep has been worse again');
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await phone.getByRole('button', { name: 'Book this visit' }).click();
  await expect(phone.getByRole('heading', { name: 'Your visit is booked' })).toBeVisible();
  await expect(phone.getByText(`${fullDay(date, 'en')}, ${time}, Video visit.`, { exact: false })).toBeVisible();

  // It is in the list, confirmed, with what can be done with it.
  await phone.getByRole('button', { name: 'Back to my appointments' }).click();
  const card = phone.getByTestId('my-appointment').filter({ hasText: `${fullDay(date, 'en')}, ${time}` });
  await expect(card).toContainText('Video visit');
  await expect(card).toContainText('with Maya Okafor');
  await expect(card).toContainText('Confirmed');
  await expect(card.getByRole('button', { name: 'Join video visit' })).toBeDisabled();
  await expect(card.getByText(/You can change or cancel this visit online until/)).toBeVisible();
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);

  // Cancel, well before the window.
  await card.getByRole('button', { name: 'Cancel visit' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Cancel this visit?' });
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('Feeling better');
  expect(await seriousViolations(phone)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel the visit' }).click();
  await expect(phone.getByText('Your visit is cancelled.')).toBeVisible();
  await expect(phone.getByText('You have no upcoming visits.')).toBeVisible();
  const past = phone.getByRole('region', { name: 'Past' }).getByTestId('my-appointment');
  await expect(past.filter({ hasText: `${fullDay(date, 'en')}, ${time}` })).toContainText('Cancelled');

  // The server agrees, and the time is free again for anyone.
  const { myAvailableSlots } = await graphqlData<{ myAvailableSlots: { time: string; available: boolean }[] }>(
    phone.request,
    ORIGIN,
    'query ($d: String!) { myAvailableSlots(date: $d) { time available } }',
    { d: date },
  );
  expect(myAvailableSlots.find((slot) => slot.time === time)?.available).toBe(true);
  await patient.close();
});

test('inside the policy’s window a visit can only be changed by calling the clinic, in Spanish too', async ({
  page,
  browser,
}) => {
  const patient = await newPortalPatient(page, browser, 'es');
  const phone = patient.page;
  // The administrator books a visit less than a day away with the practice's other provider (the first of the
  // next grid times that is free, latest first, so as to stay clear of the other specs' mornings).
  const { listPatients } = await graphqlData<{ listPatients: { items: { id: string }[] } }>(
    page.request,
    ORIGIN,
    'query ($f: PatientFilterInput) { listPatients(filter: $f) { items { id } } }',
    { f: { search: patient.email } },
  );
  const { listDoctors } = await graphqlData<{ listDoctors: { items: { id: string; email: string }[] } }>(
    page.request,
    ORIGIN,
    '{ listDoctors(limit: 100) { items { id email } } }',
  );
  const reyes = listDoctors.items.find((doctor) => doctor.email === 'provider2@demo.test')!;
  const soon = Date.now() + 2 * 3_600_000;
  const within = Date.now() + 22 * 3_600_000;
  const candidates = [todayIn(ZONE), addDays(todayIn(ZONE), 1)]
    .flatMap((date) => APPOINTMENT_TIMES.map((time) => ({ date, time, at: zonedInstant(date, time, ZONE).getTime() })))
    .filter((slot) => slot.at > soon && slot.at < within)
    .reverse();
  let booked: { date: string; time: string } | null = null;
  for (const slot of candidates) {
    const answer = await graphqlCall(
      page.request,
      ORIGIN,
      'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
      {
        input: {
          patientId: listPatients.items[0]!.id,
          providerId: reyes.id,
          date: slot.date,
          time: slot.time,
          reason: 'Follow-up',
          appointmentType: 'in-person',
          allowOutsideHours: true,
        },
      },
    );
    if (!answer.errors) {
      booked = slot;
      break;
    }
  }
  expect(booked, 'a free time less than a day away').not.toBeNull();

  await phone.goto('/my/appointments');
  await expect(phone.getByRole('heading', { level: 1, name: 'Mis citas' })).toBeVisible();
  const card = phone
    .getByTestId('my-appointment')
    .filter({ hasText: `${fullDay(booked!.date, 'es')}, ${booked!.time}` });
  await expect(card).toContainText('Presencial');
  await expect(card.getByText(/Faltan menos de 24 horas para esta consulta/)).toBeVisible();
  const call = card.getByRole('link', { name: `Llamar al ${PRACTICE_SETTINGS.clinicPhone}` });
  await expect(call).toHaveAttribute('href', /^tel:/);
  await expect(card.getByRole('button', { name: 'Cancelar la consulta' })).toHaveCount(0);
  // A visit the practice booked can still be confirmed: "I'll be there".
  await card.getByRole('button', { name: 'Asistiré' }).click();
  await expect(phone.getByText('Gracias, su consulta está confirmada.')).toBeVisible();
  await expect(card).toContainText('Confirmada');
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);

  // Booking in Spanish: the form and the server's rules speak it.
  await phone.getByRole('button', { name: 'Reservar una consulta' }).click();
  await expect(phone.getByRole('heading', { name: 'Reservar una consulta' })).toBeVisible();
  await phone.getByRole('button', { name: 'Reservar esta consulta' }).click();
  await expect(phone.getByText('Seleccione una fecha', { exact: true })).toBeVisible();
  await expect(phone.getByText('Indique el motivo de la consulta', { exact: true })).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);
  await patient.close();
});
