import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { linkFromOutbox } from '../support/outbox.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;

/** A practice date some weeks ahead that is a Thursday, and its ISO weekday. */
function thursdayAhead(weeks: number): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + weeks * 7);
  while (day.getUTCDay() !== 4) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

async function newPatient(page: Page, firstName: string, lastName: string): Promise<{ id: string; email: string }> {
  const email = `${firstName}.${lastName}.${Date.now()}@example.net`.toLowerCase();
  const data = await graphqlData<{ createPatient: { id: string } }>(
    page.request,
    ORIGIN,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName, lastName, email, dateOfBirth: '1984-05-06' } },
  );
  return { id: data.createPatient.id, email };
}

test('a cancelled visit is offered to the waitlist, and the patient books it from the e-mailed link', async ({
  page,
  browser,
}) => {
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  const me = await graphqlData<{ me: { userId: string } }>(page.request, ORIGIN, '{ me { userId } }');
  const waiting = await newPatient(page, 'Wanda', 'Waitlist');
  const other = await newPatient(page, 'Otto', 'Cancel');
  const date = thursdayAhead(4);
  const slots = await graphqlData<{ availableSlots: { time: string; available: boolean }[] }>(
    page.request,
    ORIGIN,
    'query ($p: ID!, $d: String!) { availableSlots(providerId: $p, date: $d) { time available } }',
    { p: me.me.userId, d: date },
  );
  const time = slots.availableSlots.find((s) => s.available && s.time < '12:00')?.time;
  expect(time, 'a free morning slot').toBeTruthy();
  const booked = await graphqlData<{ createAppointment: { id: string } }>(
    page.request,
    ORIGIN,
    'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
    { input: { patientId: other.id, date, time, reason: 'Follow-up' } },
  );

  // The provider puts Wanda on the waitlist for Thursday mornings.
  await page.goto('/waitlist');
  await expect(page.getByRole('heading', { level: 1, name: 'Waitlist' })).toBeVisible();
  await page.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(page.getByText('Please select a patient')).toBeVisible();
  await page.getByRole('combobox', { name: 'Patient' }).fill('Waitlist');
  await page.getByRole('option', { name: 'Wanda Waitlist' }).first().click();
  await page.getByLabel('Until').fill(date);
  await page.getByRole('checkbox', { name: 'Thursday' }).check();
  await page.getByRole('combobox', { name: 'Time of day' }).click();
  await page.getByRole('option', { name: 'Morning' }).click();
  await page.getByRole('textbox', { name: 'Reason for Visit' }).fill('Wants an earlier visit');
  await page.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(page.getByText('The patient is on the waitlist.')).toBeVisible();
  await expect(page.getByTestId('waitlist-entry').filter({ hasText: 'Wanda Waitlist' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Otto cancels: the freed time is offered to Wanda by e-mail.
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }',
    {
      input: { id: booked.createAppointment.id, reason: 'Cannot come' },
    },
  );
  const admin = await browser.newPage();
  await signInByApi(admin, 'admin@demo.test', ORIGIN);
  await expect
    .poll(
      async () => {
        await admin.goto('/admin/outbox');
        // The list renders after its query: look once the first mail is there, not at the page still loading.
        await admin.getByTestId('outbox-mail').first().waitFor();
        return admin
          .getByTestId('outbox-mail')
          .filter({ hasText: `To: ${waiting.email}` })
          .count();
      },
      // The offer goes out from a background job: on a busy machine it can take longer than one expect's 10 s.
      within(30_000),
    )
    .toBeGreaterThan(0);
  const link = await linkFromOutbox(admin, waiting.email, 'Waitlist offer');
  expect(link).toContain('/waitlist/offer#');
  await admin.close();

  // Wanda, not signed in, at phone size, books it.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const patientPage = await phone.newPage();
  await patientPage.goto(link);
  await expect(patientPage.getByRole('heading', { name: 'A time has opened up' })).toBeVisible();
  await expect(patientPage.getByText(`at ${time}`)).toBeVisible();
  expect(await seriousViolations(patientPage)).toEqual([]);
  await patientPage.getByRole('button', { name: 'Book this time' }).click();
  await expect(patientPage.getByText('The appointment is yours.')).toBeVisible();
  await phone.close();

  const list = await graphqlData<{
    listAppointments: { items: { patientId: string; time: string; status: string }[] };
  }>(
    page.request,
    ORIGIN,
    'query ($f: AppointmentFilterInput) { listAppointments(filter: $f) { items { patientId time status } } }',
    { f: { from: date, to: date, patientId: waiting.id } },
  );
  expect(list.listAppointments.items).toEqual([{ patientId: waiting.id, time, status: 'confirmed' }]);
});
