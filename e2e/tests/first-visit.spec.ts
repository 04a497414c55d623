/**
 * Before the first visit (issue 28; decision 068): a new patient, on a phone, sees "Before your first visit" on the
 * dashboard, follows it to sign the telehealth consent and to the intake form, and the card shrinks as each is
 * done; the provider sees "Consent missing" and "Intake incomplete" on the calendar's card and the chart, gone
 * once the patient has done both. Each test makes its own patient with a portal account (support/records.ts).
 */
import { seriousViolations } from '../support/axe.ts';
import { within, scaled } from '../support/budget.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { bookVisit, createPortalPatient, signedInRequest } from '../support/records.ts';
import { MAIN_SERVER } from '../support/servers.ts';

const ORIGIN = MAIN_SERVER.url;
const SAVE_INTAKE = 'mutation ($input: SaveIntakeSectionInput!) { saveIntakeSection(input: $input) { status } }';
const SUBMIT_INTAKE = 'mutation ($patientId: ID!) { submitIntake(patientId: $patientId) { status } }';

test('a new patient follows "Before your first visit" to the consent and the intake; the provider sees the badges go', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(240_000));
  const patient = await createPortalPatient(ORIGIN);
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  const visit = await bookVisit(page.request, ORIGIN, patient.id);

  // The provider: both badges on the calendar's card and in the chart's header.
  await page.goto(`/calendar?date=${visit.date}`);
  const card = page.getByTestId('appointment-card').filter({ hasText: patient.lastName });
  await expect(card.getByText('Consent missing')).toBeVisible(within(30_000));
  await expect(card.getByText('Intake incomplete')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`/patients/${patient.id}`);
  const header = page.getByTestId('readiness-badges');
  await expect(header.getByText('Consent missing')).toBeVisible(within(30_000));
  await expect(header.getByText('Intake incomplete')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The patient, on a phone: the card lists the consent and the intake.
  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  const phone = await context.newPage();
  await signInByApi(phone, patient.email, ORIGIN, patient.password);
  await phone.goto('/dashboard');
  const checklist = phone.getByRole('region', { name: 'Before your first visit' });
  await expect(checklist).toBeVisible(within(30_000));
  const items = checklist.getByTestId('first-visit-item');
  await expect(items.filter({ hasText: 'Telehealth informed consent' })).toBeVisible();
  await expect(items.filter({ hasText: 'Intake form' })).toBeVisible();
  const before = await items.count();
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);

  // To the documents, where the consent is signed.
  await checklist.getByRole('link', { name: 'Sign Telehealth informed consent' }).click();
  await expect(phone.getByRole('heading', { name: 'My documents', level: 1 })).toBeVisible(within(30_000));
  expect(await seriousViolations(phone)).toEqual([]);
  const consent = phone.getByRole('listitem').filter({ hasText: 'Telehealth informed consent' });
  await consent.getByRole('button', { name: /^Read and sign: / }).click();
  const sign = phone.getByRole('region', { name: 'Sign this document' });
  await sign.getByRole('textbox', { name: 'Your full name' }).fill(`${patient.firstName} ${patient.lastName}`);
  await sign.getByRole('checkbox', { name: /I agree to it/ }).check();
  await sign.getByRole('button', { name: 'Sign' }).click();
  await expect(phone.getByRole('status').filter({ hasText: 'the document is signed' })).toBeVisible(within(30_000));

  // Back on the dashboard, one item fewer.
  await phone.goto('/dashboard');
  await expect(items).toHaveCount(before - 1, within(30_000));
  await expect(items.filter({ hasText: 'Telehealth informed consent' })).toHaveCount(0);

  // To the intake form (filled in step by step in intake.spec.ts; here submitted through the API).
  await checklist.getByRole('link', { name: 'Start the intake form' }).click();
  await expect(phone).toHaveURL(/\/my\/intake$/);
  await expect(phone.getByTestId('intake-step')).toHaveText(/^Step 1 of \d+$/, within(30_000));
  expect(await seriousViolations(phone)).toEqual([]);
  const patientRequest = await signedInRequest(ORIGIN, patient.email, patient.password);
  try {
    await graphqlData(patientRequest, ORIGIN, SAVE_INTAKE, {
      input: {
        patientId: patient.id,
        section: 'details',
        answers: JSON.stringify({
          firstName: patient.firstName,
          lastName: patient.lastName,
          dateOfBirth: '1985-04-12',
          phone: '(212) 555-0142',
          street: '12 Elm Street',
          city: 'Springfield',
          state: 'NY',
          zipCode: '10001',
          emergencyContactName: 'Ana Contact',
          emergencyContactPhone: '(212) 555-0199',
        }),
      },
    });
    await graphqlData(patientRequest, ORIGIN, SUBMIT_INTAKE, { patientId: patient.id });
  } finally {
    await patientRequest.dispose();
  }
  await phone.goto('/dashboard');
  // The other documents the practice asks for keep the card on screen, without the intake.
  await expect(checklist).toBeVisible(within(30_000));
  await expect(items.filter({ hasText: 'Intake form' })).toHaveCount(0, within(30_000));
  await context.close();

  // The provider: no consent badge; the intake waits for review.
  await page.goto(`/calendar?date=${visit.date}`);
  await expect(card.getByText('Intake to review')).toBeVisible(within(30_000));
  await expect(card.getByText('Consent missing')).toHaveCount(0);
  await expect(card.getByText('Intake incomplete')).toHaveCount(0);
  await page.goto(`/patients/${patient.id}`);
  await expect(header.getByText('Intake to review')).toBeVisible(within(30_000));
  await expect(header.getByText('Consent missing')).toHaveCount(0);
});
