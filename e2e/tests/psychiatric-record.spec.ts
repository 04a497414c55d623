/**
 * The psychiatric record (issue 27; decision 062): a provider records a diagnosis from the ICD-10-CM list, starts a
 * medication from the catalogue, changes its dose from a medication-management note (the change linked to the
 * note), and reads the case at a glance: the dose change and the PHQ-9 on one time line, and the same as a table.
 * The patient, on a phone and in Spanish, acknowledges the signed treatment plan, reads their medication list and
 * prints it. Each test makes its own
 * patient with a portal account (support/records.ts).
 */
import { DEMO_PASSWORD } from '@telehealth/shared';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { createPortalPatient, signedInRequest } from '../support/records.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;
// 1+1+2+2+1+1+2+2+0 = 12: moderate, no safety path.
const PHQ9_ANSWERS = [1, 1, 2, 2, 1, 1, 2, 2, 0];

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

test('a provider records a diagnosis and a medication, changes the dose from a note, and sees it beside the PHQ-9; the patient acknowledges the plan and prints the list in Spanish', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(180_000));
  const patient = await createPortalPatient(ORIGIN, { language: 'es' });
  await signInByApi(page, 'provider@demo.test', ORIGIN);

  // A PHQ-9 the patient filled in (through the API: the questionnaire's own screens have their own tests).
  const patientRequest = await signedInRequest(ORIGIN, patient.email, patient.password);
  try {
    const sent = await graphqlData<{ sendQuestionnaire: { id: string } }>(
      page.request,
      ORIGIN,
      'mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { id } }',
      { input: { patientId: patient.id, instrument: 'phq9' } },
    );
    await graphqlData(
      patientRequest,
      ORIGIN,
      'mutation ($input: SubmitQuestionnaireInput!) { submitQuestionnaire(input: $input) { safetyAlert } }',
      { input: { id: sent.sendQuestionnaire.id, answers: PHQ9_ANSWERS, difficulty: 1 } },
    );
  } finally {
    await patientRequest.dispose();
  }

  await page.goto(`/patients/${patient.id}`);
  // The diagnosis, picked from the list by words of its title: its official title comes with it.
  const diagnoses = page.getByRole('region', { name: 'Diagnoses' });
  await diagnoses.getByRole('button', { name: 'Add diagnosis' }).click(within(30_000));
  const addDiagnosis = page.getByRole('dialog', { name: 'Add a diagnosis' });
  await addDiagnosis.getByRole('combobox', { name: 'ICD-10-CM code' }).fill('major depressive recurrent moderate');
  await page.getByRole('option', { name: /^F33\.1 / }).click();
  await expect(addDiagnosis.getByTestId('diagnosis-code-title')).toHaveText(
    'Major depressive disorder, recurrent, moderate',
  );
  await addDiagnosis.getByRole('checkbox', { name: 'Primary diagnosis' }).check();
  await addDiagnosis.getByRole('button', { name: 'Add diagnosis' }).click();
  await expect(addDiagnosis).toHaveCount(0);
  await expect(diagnoses.getByTestId('diagnosis')).toContainText('Major depressive disorder, recurrent, moderate');
  await expect(diagnoses.getByTestId('diagnosis')).toContainText('Primary');

  // The medication, from the catalogue by its brand name, started four weeks ago for that diagnosis.
  const medications = page.getByRole('region', { name: 'Medications', exact: true });
  await medications.getByRole('button', { name: 'Start a medication' }).click();
  const start = page.getByRole('dialog', { name: 'Start a medication' });
  await start.getByRole('combobox', { name: 'Medication' }).fill('Zoloft');
  await page.getByRole('option', { name: /^sertraline/ }).click();
  await expect(start.getByTestId('catalogue-drug')).toContainText('SSRI');
  await start.getByRole('textbox', { name: 'Dose' }).fill('50');
  await start
    .getByRole('combobox', { name: 'Indication' })
    .selectOption({ label: 'F33.1 Major depressive disorder, recurrent, moderate' });
  await start.getByLabel('Start date').fill(daysAgo(28));
  await start.getByRole('button', { name: 'Start the medication' }).click();
  await expect(start).toHaveCount(0);
  await expect(medications.getByTestId('medication-sig')).toHaveText('50 mg by mouth once daily');

  // A medication-management note shows the record beside it; once saved, the dose is changed from it.
  await page.getByRole('button', { name: 'New note for this patient' }).click();
  const editor = page.getByRole('dialog', { name: 'New Note' });
  await editor.getByRole('combobox', { name: 'Start from a template' }).click();
  await page.getByRole('option', { name: 'Medication management' }).click();
  const aside = editor.getByTestId('note-record');
  await expect(aside).toContainText('F33.1');
  await expect(aside.getByTestId('latest-phq9')).toContainText('PHQ-9 12');
  await expect(aside).toContainText('Save the draft to change medications');
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(editor).toHaveCount(0);
  // The saved draft opens to read; from there it is edited again.
  await page.getByRole('button', { name: 'Edit Draft' }).click();
  const draft = page.getByRole('dialog', { name: 'Edit Note' });
  await draft.getByTestId('note-record').getByRole('button', { name: 'Change dose: sertraline' }).click();
  const change = page.getByRole('dialog', { name: 'Change sertraline' });
  await change.getByRole('textbox', { name: 'Dose' }).fill('100');
  await change.getByRole('textbox', { name: 'Why' }).fill('Partial response at four weeks');
  await change.getByRole('button', { name: 'Record the change' }).click();
  await expect(change).toHaveCount(0);
  await expect(draft.getByTestId('note-record').getByTestId('medication-sig')).toHaveText('100 mg by mouth once daily');
  await draft.getByRole('button', { name: 'Cancel', exact: true }).last().click();
  await expect(draft).toHaveCount(0);

  // The change is linked to the note, and the case at a glance lines it up with the score.
  const record = await graphqlData<{
    patientMedications: { medications: { events: { kind: string; noteId: string | null }[] }[] };
  }>(
    page.request,
    ORIGIN,
    'query ($id: ID!) { patientMedications(patientId: $id) { medications { events { kind noteId } } } }',
    { id: patient.id },
  );
  const events = record.patientMedications.medications[0]!.events;
  expect(events.map((e) => e.kind)).toEqual(['started', 'dose-changed']);
  expect(events[1]!.noteId).not.toBeNull();
  const timeline = page.getByRole('region', { name: 'The case at a glance' });
  await expect(timeline.getByTestId('case-timeline')).toBeVisible();
  await expect(timeline.getByTestId('timeline-scores-phq9')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await timeline.getByRole('switch', { name: 'Show as a table' }).check();
  const rows = timeline.getByTestId('timeline-row');
  await expect(rows).toHaveCount(3);
  // Four weeks ago the start; today (in either order, by the minute) the new dose and the score.
  await expect(rows.nth(0)).toContainText('sertraline · Started · 50 mg');
  await expect(rows.filter({ hasText: 'sertraline · Dose changed · 100 mg' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'PHQ-9 12 (Moderate)' })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);

  // A treatment plan for that diagnosis, written and signed by the provider (its screens have their own tests).
  const diagnosisId = (
    await graphqlData<{ patientDiagnoses: { id: string }[] }>(
      page.request,
      ORIGIN,
      'query ($id: ID!) { patientDiagnoses(patientId: $id) { id } }',
      { id: patient.id },
    )
  ).patientDiagnoses[0]!.id;
  const draftPlan = await graphqlData<{ saveTreatmentPlan: { id: string } }>(
    page.request,
    ORIGIN,
    'mutation ($input: SaveTreatmentPlanInput!) { saveTreatmentPlan(input: $input) { id } }',
    {
      input: {
        patientId: patient.id,
        status: 'active',
        problemIds: [diagnosisId],
        goals: [{ description: 'Mood lifts', instrument: 'phq9', targetBelow: 10, targetDate: daysAgo(-90) }],
        interventions: ['Sertraline, titrate to effect'],
        targetDate: daysAgo(-180),
        reviewDate: daysAgo(-60),
      },
    },
  );
  await graphqlData(
    page.request,
    ORIGIN,
    'mutation ($input: SignTreatmentPlanInput!) { signTreatmentPlan(input: $input) { id } }',
    { input: { id: draftPlan.saveTreatmentPlan.id, password: DEMO_PASSWORD } },
  );

  // The patient, on a phone, in Spanish: the plan to acknowledge, the list and the page to print it.
  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  const phone = await context.newPage();
  await phone.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await signInByApi(phone, patient.email, ORIGIN, patient.password);
  await phone.goto('/my/records');
  const mine = phone.getByRole('region', { name: 'Mis medicamentos' });
  await expect(mine.getByTestId('my-medication')).toContainText('100 mg por vía oral una vez al día', within(30_000));
  await expect(phone.getByTestId('my-diagnosis')).toContainText('F33.1');
  const plan = phone.getByRole('region', { name: 'Mi plan de tratamiento' });
  await expect(plan).toContainText('Mood lifts');
  await plan.getByRole('button', { name: 'He leído este plan' }).click();
  await expect(plan).toContainText('Indicó que había leído este plan el');
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await mine.getByRole('link', { name: 'Imprimir mi lista de medicamentos' }).click();
  const list = phone.getByRole('table', { name: 'Los medicamentos de su expediente' });
  await expect(list).toContainText('sertraline');
  await expect(list).toContainText('100 mg por vía oral una vez al día');
  await expect(phone.getByRole('button', { name: 'Imprimir' })).toBeEnabled();
  expect(await seriousViolations(phone)).toEqual([]);
  await context.close();
});
