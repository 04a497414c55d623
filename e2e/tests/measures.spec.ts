/**
 * Measures for clinicians (issue 25, point 3; decision 028): the provider opens a submitted PHQ-9 on the chart and
 * reads every answer, item by item in their language, item 9 marked when above 0, and what was done about its
 * safety alert; the patient sees their own score neutrally, with what it means and what happens next. Each test
 * makes its own patient of the first demo provider, with a portal account (support/records.ts).
 */
import { INSTRUMENT_DEFINITIONS } from '@telehealth/shared';
import { uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { createPortalPatient } from '../support/records.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;
const PHQ9 = INSTRUMENT_DEFINITIONS.phq9;
// 0+1+2+3+0+1+2+3 and item 9 "Several days": 13, moderate, and the safety path.
const ANSWERS = [0, 1, 2, 3, 0, 1, 2, 3, 1];

const LANGUAGES = {
  en: {
    language: 'en' as const,
    send: 'Send my answers',
    score: 'Your score: 13 (Moderate).',
    meaning: 'Your answers show moderate signs of depression over the last two weeks.',
    next: 'What happens next',
    answersOf: /^Answers: PHQ-9 \(depression\), /,
    flagged: 'Item 9 above 0: thoughts of self-harm',
    whatYouDid: 'What you did',
    close: 'Close',
  },
  es: {
    language: 'es' as const,
    send: 'Enviar mis respuestas',
    score: 'Su puntuación: 13 (Moderada).',
    meaning: 'Sus respuestas muestran signos moderados de depresión en las últimas dos semanas.',
    next: 'Qué pasa ahora',
    answersOf: /^Respuestas: PHQ-9 \(depresión\), /,
    flagged: 'Pregunta 9 por encima de 0: pensamientos de hacerse daño',
    whatYouDid: 'Lo que hizo',
    close: 'Cerrar',
  },
};

for (const words of Object.values(LANGUAGES)) {
  test(`the provider reads a PHQ-9 item by item with item 9 marked and the alert's acknowledgement; the patient's score is neutral (${words.language})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.addInitScript((language) => localStorage.setItem('telehealth.language', language), words.language);
    const patient = await createPortalPatient(ORIGIN);
    const patientId = patient.id;
    await signInByApi(page, 'provider@demo.test', ORIGIN);
    const sent = await graphqlData<{ sendQuestionnaire: { id: string } }>(
      page.request,
      ORIGIN,
      'mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { id } }',
      { input: { patientId, instrument: 'phq9' } },
    );
    const questionnaireId = sent.sendQuestionnaire.id;

    // The patient, on a phone, answers it and reads the result: a plain box, no green, what it means, what next.
    const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
    const phone = await context.newPage();
    await phone.addInitScript((language) => localStorage.setItem('telehealth.language', language), words.language);
    await signInByApi(phone, patient.email, ORIGIN, patient.password);
    await phone.goto(`/questionnaires/${questionnaireId}`);
    const items = phone.getByRole('radiogroup');
    await expect(items.first()).toBeVisible();
    for (const [index, value] of ANSWERS.entries()) {
      const option = PHQ9.options.find((o) => o.value === value)!;
      await items.nth(index).getByRole('radio', { name: option.text[words.language], exact: true }).check();
    }
    await phone.getByRole('button', { name: words.send }).click();
    const result = phone.getByRole('region', { name: words.score });
    await expect(result).toBeVisible();
    await expect(result).toContainText(words.meaning);
    await expect(result).toContainText(words.next);
    // Neutral: the page's own background, and the score in no coloured alert box.
    await expect(result).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await expect(phone.locator('.mantine-Alert-root').filter({ hasText: words.score })).toHaveCount(0);
    await expectFitsPhone(phone);
    expect(await seriousViolations(phone)).toEqual([]);
    await context.close();

    // The provider acknowledges the alert that answer raised, saying what they did.
    const note = `Called the patient ${uniqueLetters()}; safety plan reviewed.`;
    const alerts = await graphqlData<{ safetyAlerts: { id: string; questionnaireId: string }[] }>(
      page.request,
      ORIGIN,
      'query ($patientId: ID) { safetyAlerts(patientId: $patientId) { id questionnaireId } }',
      { patientId },
    );
    const alertId = alerts.safetyAlerts.find((a) => a.questionnaireId === questionnaireId)!.id;
    await graphqlData(
      page.request,
      ORIGIN,
      'mutation ($input: AcknowledgeSafetyAlertInput!) { acknowledgeSafetyAlert(input: $input) { id } }',
      { input: { id: alertId, note } },
    );

    // The chart: the acknowledgement's text, then the questionnaire's answers item by item.
    await page.goto(`/patients/${patientId}`);
    const acknowledgement = page.getByTestId('alert-acknowledgement').filter({ hasText: note });
    // The chart's route loads the charting bundle first: on a busy machine that takes longer than one check.
    await expect(acknowledgement).toBeVisible(within(30_000));
    await expect(acknowledgement).toContainText(words.whatYouDid);
    const row = page.locator(`[data-questionnaire-id="${questionnaireId}"]`);
    await row.getByRole('button', { name: words.answersOf }).click();
    const dialog = page.getByRole('dialog', { name: words.answersOf });
    const answers = dialog.getByTestId('answer-item');
    await expect(answers).toHaveCount(9);
    for (const [index, value] of ANSWERS.entries()) {
      const option = PHQ9.options.find((o) => o.value === value)!;
      await expect(answers.nth(index)).toContainText(`${index + 1}. ${PHQ9.items[index]!.text[words.language]}`);
      await expect(answers.nth(index)).toContainText(`${option.text[words.language]} (${value})`);
    }
    // Item 9, and only item 9, is marked, in words as well as in colour.
    await expect(dialog.locator('[data-flagged="true"]')).toHaveCount(1);
    await expect(answers.nth(8)).toHaveAttribute('data-flagged', 'true');
    await expect(answers.nth(8)).toContainText(words.flagged);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await answers.nth(8).scrollIntoViewIfNeeded();
    await expect(answers.nth(8)).toBeVisible();
    await expectFitsPhone(page);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: words.close }).click();
    await expect(dialog).toHaveCount(0);
    await expectFitsPhone(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

// Decision 063: the PCL-5 (0-4 per item, no difficulty question) and the AUDIT-C (each item its own answers) on a
// phone, scored and banded by the server, then charted with their own scale on the provider's chart.
test('the patient fills in a PCL-5 and an AUDIT-C on a phone; the chart draws each on its own scale', async ({
  page,
  browser,
  baseURL,
}) => {
  const patient = await createPortalPatient(ORIGIN);
  await signInByApi(page, 'provider@demo.test', ORIGIN);
  const send = async (instrument: 'pcl5' | 'auditc') =>
    (
      await graphqlData<{ sendQuestionnaire: { id: string } }>(
        page.request,
        ORIGIN,
        'mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { id } }',
        { input: { patientId: patient.id, instrument } },
      )
    ).sendQuestionnaire.id;
  const pcl = await send('pcl5');
  const audit = await send('auditc');

  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE });
  const phone = await context.newPage();
  await signInByApi(phone, patient.email, ORIGIN, patient.password);
  const fillIn = async (id: string, instrument: 'pcl5' | 'auditc', values: number[]) => {
    const definition = INSTRUMENT_DEFINITIONS[instrument];
    await phone.goto(`/questionnaires/${id}`);
    const items = phone.getByRole('radiogroup');
    await expect(items).toHaveCount(definition.items.length);
    for (const [index, value] of values.entries()) {
      const option = (definition.items[index]!.options ?? definition.options).find((o) => o.value === value)!;
      await items.nth(index).getByRole('radio', { name: option.text.en, exact: true }).check();
    }
    await expect(phone.getByText(definition.notice.en)).toBeVisible();
    await expectFitsPhone(phone);
    await phone.getByRole('button', { name: 'Send my answers' }).click();
  };
  // 33: the provisional cut-point, "Probable PTSD".
  await fillIn(pcl, 'pcl5', [4, 4, 4, 4, 4, 4, 4, 4, 1, ...Array.from({ length: 11 }, () => 0)]);
  await expect(phone.getByRole('region', { name: 'Your score: 33 (Probable PTSD).' })).toBeVisible();
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await fillIn(audit, 'auditc', [2, 1, 0]);
  await expect(
    phone.getByRole('region', { name: 'Your score: 3 (Positive screen (3+ women, 4+ men)).' }),
  ).toBeVisible();
  await context.close();

  await page.goto(`/patients/${patient.id}`);
  await expect(page.getByTestId('measure-chart-pcl5')).toBeVisible(within(30_000));
  await expect(page.getByTestId('measure-chart-pcl5')).toContainText('Below threshold 0–32, Probable PTSD 33–80');
  await expect(page.getByTestId('measure-chart-auditc')).toContainText('Low 0–2');
});
