import { DEMO_PASSWORD } from '@telehealth/shared';

import { approvePatientRequest, submitPatientRequest, uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { mailTextFromOutbox } from '../support/outbox.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { scaled } from '../support/budget.ts';

const PASSWORD = 'Portal-Pass-2026!';

test('a patient on a phone fills in a questionnaire from My Records, reads a shared note, sees who viewed the record, and switches the portal to Spanish', async ({
  page,
  browser,
  signInAs,
  baseURL,
}) => {
  // One patient's whole journey across three browsers (an account of its own is set up first): longer than most.
  test.setTimeout(scaled(120_000));
  const origin = new URL(baseURL ?? '').origin;
  const suffix = uniqueLetters();
  // A patient of our own (the demo patient's account is shared with other tests): a request, approved with Maya
  // Okafor as primary provider, its invitation accepted.
  const person = { firstName: 'Paula', lastName: `Portal${suffix}`, email: `paula.${suffix}@example.test` };
  await submitPatientRequest(page.request, origin, person);
  await signInAs('admin');
  await approvePatientRequest(page, person);
  const invitation = await mailTextFromOutbox(page, person.email, 'Invitation');
  const token = /\/invite#([^\s]+)/.exec(invitation)?.[1] ?? '';
  await graphqlData(
    page.request,
    origin,
    'mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }',
    {
      t: token,
      p: PASSWORD,
    },
  );

  // The provider: sends a GAD-7 and writes and signs a visit summary (set up through the API).
  const providerContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const provider = await providerContext.newPage();
  await signInByApi(provider, 'provider@demo.test', origin);
  const { listPatients } = await graphqlData<{ listPatients: { items: { id: string }[] } }>(
    provider.request,
    origin,
    'query($f: PatientFilterInput) { listPatients(filter: $f) { items { id } } }',
    { f: { search: person.email } },
  );
  const patientId = listPatients.items[0]?.id ?? '';
  expect(patientId).not.toBe('');
  await graphqlData(
    provider.request,
    origin,
    'mutation($i: SendQuestionnaireInput!) { sendQuestionnaire(input: $i) { id } }',
    {
      i: { patientId, instrument: 'gad7' },
    },
  );
  const title = `Visit summary ${suffix}`;
  const { createNote } = await graphqlData<{ createNote: { id: string } }>(
    provider.request,
    origin,
    'mutation($i: CreateNoteInput!) { createNote(input: $i) { id } }',
    { i: { title, content: 'We agreed to keep a sleep diary for two weeks.', patientId } },
  );
  await graphqlData(provider.request, origin, 'mutation($i: SignNoteInput!) { signNote(input: $i) { id } }', {
    i: { id: createNote.id, password: DEMO_PASSWORD },
  });

  // The provider opens the chart (the view the patient will see) and shares the note from its reader.
  await provider.goto(`/patients/${patientId}`);
  await provider.getByRole('button', { name: `Open note ${title}` }).click();
  const reader = provider.getByRole('dialog', { name: title });
  await reader.getByRole('button', { name: 'Share with the patient' }).click();
  await expect(reader.getByText(/^Shared with the patient by Maya Okafor on /)).toBeVisible();

  // The patient, on a phone.
  const phoneContext = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  const phone = await phoneContext.newPage();
  await signInByApi(phone, person.email, origin, PASSWORD);
  await phone.goto('/dashboard');
  await phone
    .getByRole('link', { name: /My Records/ })
    .first()
    .click();
  await expect(phone.getByRole('heading', { level: 1, name: 'My Records' })).toBeVisible();
  await expect(phone.getByText(person.email)).toBeVisible();
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);

  // The waiting questionnaire, filled in from My Records; its result comes back as a chart.
  await phone.getByRole('link', { name: 'Fill in the GAD-7 (anxiety)' }).click();
  const items = phone.getByRole('radiogroup');
  for (let i = 0; i < 7; i++) await items.nth(i).getByRole('radio', { name: 'Several days' }).check();
  await phone.getByRole('button', { name: 'Send my answers' }).click();
  await expect(phone.getByText('Thank you. Your answers were sent to your care team.')).toBeVisible();
  await phone.goto('/my/records');
  await expect(phone.getByTestId('measure-chart-gad7')).toBeVisible();
  await expect(phone.getByText('Nothing is waiting for you to fill in.')).toBeVisible();

  // The shared note, read with its content.
  await phone.getByRole('button', { name: `Read ${title}` }).click();
  const shared = phone.getByRole('dialog', { name: title });
  await expect(shared.getByText('We agreed to keep a sleep diary for two weeks.')).toBeVisible();
  await expect(shared.getByText(/^Signed by Maya Okafor on /)).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);
  await shared.getByRole('button', { name: 'Close' }).click();

  // Who viewed my record: the provider's opening of the chart a moment ago, and the sharing.
  await phone.goto('/my/record-access');
  await expect(phone.getByRole('heading', { level: 1, name: 'Who viewed my record' })).toBeVisible();
  const table = phone.getByTestId('record-access-table');
  const chartView = table.getByRole('row').filter({ hasText: 'Opened your chart' }).first();
  await expect(chartView).toContainText('Maya Okafor');
  await expect(chartView).toContainText('Provider');
  await expect(table.getByRole('row').filter({ hasText: 'Shared a note with you' }).first()).toContainText(
    'Maya Okafor',
  );
  // The patient's own readings are not listed.
  await expect(table.getByText(`${person.firstName} ${person.lastName}`)).toHaveCount(0);
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);

  // My account: Spanish, and the whole portal follows, on this device and the next.
  await phone.goto('/profile');
  await expect(phone.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);
  await phone.getByText('Español', { exact: true }).click();
  await expect(phone.getByRole('heading', { level: 1, name: 'Mi cuenta' })).toBeVisible();
  await phone.goto('/my/records');
  await expect(phone.getByRole('heading', { level: 1, name: 'Mis registros' })).toBeVisible();
  await expect(phone.getByRole('heading', { name: 'Notas compartidas conmigo' })).toBeVisible();
  await phone.goto('/my/record-access');
  await expect(phone.getByRole('heading', { level: 1, name: 'Quién consultó mi historial' })).toBeVisible();
  await expect(phone.getByTestId('record-access-table').getByText('Abrió su ficha').first()).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);

  const laptopContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const laptop = await laptopContext.newPage();
  await signInByApi(laptop, person.email, origin, PASSWORD);
  await laptop.goto('/dashboard');
  await expect(laptop.getByRole('heading', { name: 'Portal del paciente' })).toBeVisible();

  await laptopContext.close();
  await phoneContext.close();
  await providerContext.close();
});
