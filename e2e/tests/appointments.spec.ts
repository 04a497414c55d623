import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;

const addMinutes = (time: string, minutes: number) => {
  const total = Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

/**
 * A weekday from tomorrow on where the provider has three free half-hours in a row, an hour apart (the booking, the
 * time it is dragged to, and a time a second visit takes), before 16:00. Answers the date and the first time.
 */
async function freeMorning(page: Page, providerId: string): Promise<{ date: string; time: string }> {
  for (let offset = 1; offset < 30; offset++) {
    const day = new Date(Date.now() + offset * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const date = day.toISOString().slice(0, 10);
    const { availableSlots } = await graphqlData<{ availableSlots: { time: string; available: boolean }[] }>(
      page.request,
      ORIGIN,
      'query ($p: ID!, $d: String!) { availableSlots(providerId: $p, date: $d, duration: 30) { time available } }',
      { p: providerId, d: date },
    );
    const free = new Set(availableSlots.filter((s) => s.available).map((s) => s.time));
    const time = [...free].find((t) => t < '15:00' && free.has(addMinutes(t, 60)) && free.has(addMinutes(t, 120)));
    if (time) return { date, time };
  }
  throw new Error('no free morning in the next 30 days');
}

async function newPatient(
  page: Page,
  firstName: string,
  lastName: string,
  email = `${firstName}.${lastName}.${Date.now()}@example.net`.toLowerCase(),
): Promise<string> {
  const created = await graphqlData<{ createPatient: { id: string } }>(
    page.request,
    ORIGIN,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    {
      input: { firstName, lastName, email, dateOfBirth: '1990-02-03' },
    },
  );
  return created.createPatient.id;
}

/** The name of a day number's link in the month view ("Go to December 3, 2026"). */
function dayLink(date: string): RegExp {
  return new RegExp(`^Go to \\w+ ${Number(date.slice(8))}, ${date.slice(0, 4)}$`);
}

/** Moves the month view to the month of `date` and opens that day (its number is a link to the day view). */
async function openDay(page: Page, date: string): Promise<void> {
  const title = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
  const calendar = page.getByTestId('calendar');
  await expect(calendar.getByRole('heading', { level: 2 })).toBeVisible();
  for (let i = 0; i < 3 && !(await calendar.getByRole('heading', { name: title }).isVisible()); i++) {
    await calendar.getByRole('button', { name: 'Next' }).click();
  }
  await expect(calendar.getByRole('heading', { name: title })).toBeVisible();
}

test('a provider schedules a video visit through the form and sees it in month, week and day', async ({ page }) => {
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  const me = await graphqlData<{ me: { userId: string } }>(page.request, ORIGIN, '{ me { userId } }');
  await newPatient(page, 'Eva', 'Scheduler');
  const { date, time } = await freeMorning(page, me.me.userId);

  await page.goto('/appointments/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule New Appointment' })).toBeVisible();
  await page.getByRole('button', { name: 'Schedule Appointment' }).click();
  for (const message of [
    'Please select a patient',
    'Please select a date',
    'Please select a time',
    'Please provide a reason for the visit',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('combobox', { name: 'Patient' }).fill('Scheduler');
  await page.getByRole('option', { name: 'Eva Scheduler' }).first().click();
  await expect(page.getByText('Please select a patient', { exact: true })).toBeHidden();
  await page.getByRole('combobox', { name: 'Appointment Type' }).click();
  await page.getByRole('option', { name: 'Video Call' }).click();
  await expect(page.getByText('The patient will receive a link to join the video call by email.')).toBeVisible();
  await page.getByLabel('Date').fill(date);
  await page.getByRole('combobox', { name: 'Time' }).click();
  await page.getByRole('option', { name: time, exact: true }).click();
  await page.getByRole('textbox', { name: 'Reason for Visit' }).fill('Medication follow-up');
  await page.getByRole('button', { name: 'Schedule Appointment' }).click();
  await expect(page.getByRole('heading', { name: 'Appointment Scheduled!' })).toBeVisible();
  await expect(page).toHaveURL(/\/calendar$/, within(5000));

  // Month: the name on its day. Day (the day's number is a link): the visit. Week: the same visit.
  await openDay(page, date);
  const calendar = page.getByTestId('calendar');
  await expect(calendar.getByText('Eva Scheduler').first()).toBeVisible();
  await calendar.getByRole('link', { name: dayLink(date) }).click();
  await expect(page.getByRole('heading', { name: /Appointments for/ })).toBeVisible();
  await expect(calendar.getByText('Eva Scheduler')).toBeVisible();
  await expect(page.getByTestId('appointment-card').filter({ hasText: 'Eva Scheduler' })).toContainText('Video Call');
  await calendar.getByRole('tab', { name: /Week/ }).click();
  await expect(calendar.getByText('Eva Scheduler')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('dragging a visit moves it, a busy time is refused with the reason, and a visit is cancelled with a reason', async ({
  page,
  context,
  browser,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
  await signInByApi(page, 'provider2@demo.test', ORIGIN);
  const me = await graphqlData<{ me: { userId: string } }>(page.request, ORIGIN, '{ me { userId } }');
  const { date, time } = await freeMorning(page, me.me.userId);
  const danaEmail = `dana.dragger.${Date.now()}@example.net`;
  const dana = await newPatient(page, 'Dana', 'Dragger', danaEmail);
  const other = await newPatient(page, 'Omar', 'Busy');
  const booked = await graphqlData<{ createAppointment: { id: string } }>(
    page.request,
    ORIGIN,
    'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
    { input: { patientId: dana, date, time, reason: 'Follow-up', appointmentType: 'video' } },
  );
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
    {
      input: { patientId: other, date, time: addMinutes(time, 120), reason: 'Follow-up' },
    },
  );

  await page.goto('/calendar');
  await openDay(page, date);
  const calendar = page.getByTestId('calendar');
  await calendar.getByRole('link', { name: dayLink(date) }).click();
  const event = calendar
    .locator('a, div')
    .filter({ hasText: /^.*Dana Dragger$/ })
    .last();
  await expect(event).toBeVisible();

  // Down by an hour (two half-hour rows): free, so it moves.
  const slotHeight = await slotRowHeight(page);
  await drag(page, event, 2 * slotHeight);
  await expect(page.getByText(`Appointment moved to`)).toBeVisible();
  await expect(page.getByText(`at ${addMinutes(time, 60)}.`)).toBeVisible();
  // Down by another hour: Omar's visit is there.
  await drag(
    page,
    calendar
      .locator('a, div')
      .filter({ hasText: /^.*Dana Dragger$/ })
      .last(),
    2 * slotHeight,
  );
  await expect(
    page.getByRole('alert').filter({ hasText: 'The provider already has an appointment at this time' }),
  ).toBeVisible();

  // The share dialog copies the video link.
  const card = page.getByTestId('appointment-card').filter({ hasText: 'Dana Dragger' });
  await card.getByRole('button', { name: 'Share Link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Video Call Link' });
  await expect(dialog.getByRole('textbox', { name: 'Video call link' })).toHaveValue(
    `${ORIGIN}/video-call/${booked.createAppointment.id}`,
  );
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied!' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible(within(4000));
  await page.keyboard.press('Escape');

  // Cancel it, with a reason.
  await card.getByRole('button', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: 'Appointment details' });
  await details.getByRole('button', { name: 'Cancel appointment' }).click();
  await details.getByRole('textbox', { name: 'Reason for the cancellation' }).fill('Patient is travelling');
  await details.getByRole('button', { name: 'Cancel appointment' }).last().click();
  await expect(details.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(details.getByText(/Cancelled \(the provider\): Patient is travelling/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Dana's invitations in the outbox: booked, moved, cancelled; each with its iCalendar file.
  const admin = await browser.newPage();
  await signInByApi(admin, 'admin@demo.test', ORIGIN);
  await expect
    .poll(async () => {
      await admin.goto('/admin/outbox');
      // The list renders after its query: look once the first mail is there, not at the page still loading.
      await admin.getByTestId('outbox-mail').first().waitFor();
      const mails = admin.getByTestId('outbox-mail').filter({ hasText: `To: ${danaEmail}` });
      return mails.allInnerTexts();
    }, within(15_000))
    .toEqual([
      expect.stringContaining('Attachment: invite.ics (CANCEL)'),
      expect.stringContaining('Attachment: invite.ics (REQUEST)'),
      expect.stringContaining('Attachment: invite.ics (REQUEST)'),
    ]);
  const download = admin.waitForEvent('download');
  await admin
    .getByTestId('outbox-mail')
    .filter({ hasText: `To: ${danaEmail}` })
    .first()
    .getByTestId('outbox-ics')
    .click();
  const ics = fs.readFileSync(await (await download).path(), 'utf8');
  expect(ics).toContain('METHOD:CANCEL');
  expect(ics).toContain(`UID:${booked.createAppointment.id}@`);
  expect(ics).toContain('BEGIN:VTIMEZONE');
  await admin.close();
});

test('a visit request on the provider’s dashboard opens that appointment in the calendar, to confirm or decline', async ({
  page,
}) => {
  // The calendar page is heavy and axe reads all of it; this machine is shared.
  test.setTimeout(scaled(120_000));
  // The demo schedule holds patients' requests (pending visits) for each provider in the coming weeks.
  await signInByApi(page, 'provider2@demo.test', ORIGIN);
  await page.goto('/dashboard');
  const requests = page.getByRole('region', { name: 'Visit requests' });
  await expect(requests).toBeVisible(within(30_000));
  await expect(requests.getByText('Open each in the calendar')).toHaveCount(0);
  const link = requests.getByRole('link').first();
  const name = (await link.textContent()) ?? '';
  await link.click();
  await expect(page).toHaveURL(/\/calendar\?date=\d{4}-\d{2}-\d{2}&appointment=[0-9a-f-]{36}$/);
  const details = page.getByRole('dialog', { name: 'Appointment details' });
  // The first state after a navigation: the calendar's chunk is large, and this machine is shared.
  await expect(details.getByRole('button', { name: 'Confirm request' })).toBeVisible(within(30_000));
  await expect(details.getByRole('button', { name: 'Decline request' })).toBeVisible();
  // The same patient as the line clicked.
  const patientName = name.split(' · ')[1] ?? '';
  expect(patientName).not.toBe('');
  await expect(details).toContainText(patientName);
  expect(await seriousViolations(page)).toEqual([]);
  // Closing it leaves the calendar on that date, without the appointment in the address.
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/calendar\?date=\d{4}-\d{2}-\d{2}$/);

  // In Spanish at phone size, the requests are links too.
  await page.setViewportSize(PHONE);
  await page.evaluate(() => localStorage.setItem('telehealth.language', 'es'));
  await page.goto('/dashboard');
  const solicitudes = page.getByRole('region', { name: 'Solicitudes de consulta' });
  await expect(solicitudes.getByRole('link').first()).toBeVisible(within(30_000));
  await expect(solicitudes).toContainText('Abra una para confirmarla o rechazarla.');
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the calendar in Spanish at phone size', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('telehealth.language', 'es'));
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  await page.goto('/calendar');
  await expect(page.getByRole('heading', { level: 1, name: 'Calendario' })).toBeVisible();
  await expect(
    page
      .getByRole('button', { name: 'Programar nueva cita' })
      .or(page.getByRole('link', { name: 'Programar nueva cita' }))
      .first(),
  ).toBeVisible();
  await expect(page.getByText(/Próximas citas|Citas del/).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

/** The height of one half-hour row of the time grid: half the distance between two hour labels of its axis. */
async function slotRowHeight(page: Page): Promise<number> {
  const calendar = page.getByTestId('calendar');
  const eight = await calendar.getByText('08:00', { exact: true }).first().boundingBox();
  const nine = await calendar.getByText('09:00', { exact: true }).first().boundingBox();
  if (!eight || !nine) throw new Error('no time grid axis');
  return (nine.y - eight.y) / 2;
}

/** Drags an event down by `dy` pixels, in steps, as a person's pointer would. */
async function drag(page: Page, event: ReturnType<Page['locator']>, dy: number): Promise<void> {
  // In the middle of the window first: the page may have scrolled the event out of sight (a trace showed the press at
  // y = -189, which started a text selection instead of a drag), and the sticky header covers the top edge.
  await event.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = await event.boundingBox();
  if (!box) throw new Error('event not on screen');
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(8, box.height / 2);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) {
    await page.mouse.move(x, y + (dy * step) / 10);
    // FullCalendar follows the pointer frame by frame; a jump straight to the end is not a drag to it.
    await page.waitForTimeout(30);
  }
  await page.mouse.up();
}
