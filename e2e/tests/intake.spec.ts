/**
 * The intake packet (issue 28; decision 067): a new patient fills it in on a phone, one section per step, leaves
 * midway with "Save and finish later" and comes back where they left off, reaches the questionnaires and submits it;
 * their provider compares the details with the record, accepts it, and sees the reported medication in the chart with
 * its "Reported by patient" badge. Axe on each screen. The test makes its own patient (support/records.ts).
 */
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { createPortalPatient } from '../support/records.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;

test('a patient fills in the intake on a phone, leaving midway and coming back; the provider accepts it into the record', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(180_000));
  const patient = await createPortalPatient(ORIGIN, { fields: { street: '1 Old Road' } });

  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  const phone = await context.newPage();
  await signInByApi(phone, patient.email, ORIGIN, patient.password);
  await phone.goto('/my/intake');
  const step = phone.getByTestId('intake-step');
  const next = phone.getByRole('button', { name: 'Save and continue' });

  // Step 1: the details, prefilled from the record; the patient adds a phone number.
  await expect(step).toHaveText(/^Step 1 of \d+$/, within(30_000));
  const total = Number(/of (\d+)/.exec((await step.textContent()) ?? '')?.[1]);
  await expect(phone.getByRole('textbox', { name: 'First name' })).toHaveValue('Jamie');
  await expect(phone.getByRole('textbox', { name: 'Street address' })).toHaveValue('1 Old Road');
  await phone.getByRole('textbox', { name: 'Phone', exact: true }).fill('(212) 555-0142');
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await next.click();

  // Step 2: insurance; then the patient stops for now.
  await expect(step).toHaveText(`Step 2 of ${total}`);
  await expect(phone.getByRole('heading', { name: 'Insurance', level: 2 })).toBeFocused();
  await phone.getByRole('textbox', { name: 'Insurance company' }).fill('Acme Health');
  await phone.getByRole('textbox', { name: 'Member ID' }).fill('XZ1234567');
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await phone.getByRole('button', { name: 'Save and finish later' }).click();
  await expect(phone.getByRole('status')).toContainText('Saved. You can come back to it');

  // Later: the intake opens again at the insurance, as it was left.
  await phone.goto('/my/records');
  await phone.goto('/my/intake');
  await expect(step).toHaveText(`Step 2 of ${total}`, within(30_000));
  await expect(phone.getByRole('textbox', { name: 'Insurance company' })).toHaveValue('Acme Health');
  await next.click();

  // On through the steps: the reason for care and the current medications and allergies.
  for (let n = 3; n < total; n++) {
    await expect(step).toHaveText(`Step ${n} of ${total}`);
    const heading = (await phone.getByRole('heading', { level: 2 }).textContent()) ?? '';
    if (heading === 'Reason for seeking care') {
      await phone.getByRole('textbox', { name: 'Reason for seeking care' }).fill('Low mood for three months.');
    }
    if (heading === 'Current medications and allergies') {
      await phone.getByRole('button', { name: 'Add a medication' }).click();
      await phone.getByRole('combobox', { name: 'Medication 1' }).fill('Lamotrigine');
      await phone.getByRole('textbox', { name: 'Dose (as on the label) 1' }).fill('25 mg');
      await phone.getByRole('textbox', { name: 'How often 1' }).fill('twice a day');
      await phone.getByRole('button', { name: 'Add an allergy' }).click();
      await phone.getByRole('textbox', { name: 'Allergic to 1' }).fill('Penicillin');
      await expectFitsPhone(phone);
      expect(await seriousViolations(phone)).toEqual([]);
    }
    await next.click();
  }

  // The last step: the questionnaires, then the intake goes to the provider.
  await expect(step).toHaveText(`Step ${total} of ${total}`);
  await expect(phone.getByRole('heading', { name: 'Questionnaires to fill in' })).toBeVisible(within(30_000));
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await phone.getByRole('button', { name: 'Submit to my provider' }).click();
  await expect(phone.getByRole('status')).toContainText('Your intake was sent to your provider');
  expect(await seriousViolations(phone)).toEqual([]);
  await context.close();

  // The provider reviews it from the chart and accepts it.
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  await page.goto(`/patients/${patient.id}`);
  const panel = page.getByRole('region', { name: 'Intake' });
  await expect(panel.getByTestId('intake-status')).toHaveText('Submitted', within(30_000));
  await expect(panel.getByTestId('intake-answers-reason')).toContainText('Low mood for three months.');
  const phoneChoice = panel.getByRole('radiogroup', { name: 'Phone' });
  await expect(phoneChoice.getByRole('radio', { name: /^Take the reported/ })).toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);
  await panel.getByRole('button', { name: 'Accept into the record' }).click();
  await expect(panel.getByRole('status')).toContainText('Medications added: 1. Allergies added: 1.');
  await expect(panel.getByTestId('intake-status')).toHaveText('Accepted');

  const medications = page.getByRole('region', { name: 'Medications', exact: true });
  const lamotrigine = medications.getByTestId('medication').filter({ hasText: 'lamotrigine' });
  await expect(lamotrigine.getByTestId('reported-by-patient')).toHaveText('Reported by patient');
  await expect(lamotrigine).toContainText('As the patient wrote it: 25 mg, twice a day');
  const allergies = page.getByRole('region', { name: 'Allergies' });
  await expect(allergies.getByTestId('allergy').filter({ hasText: 'Penicillin' })).toContainText('Reported by patient');
  expect(await seriousViolations(page)).toEqual([]);
});
