/**
 * Rating scales and the safety path (decision 028) against the real server: a provider sends a questionnaire
 * (or sets it to go out before each visit), the patient fills it in, the server scores it and keeps the answers
 * encrypted with their LOINC codes; a PHQ-9 with item 9 above 0 raises an alert, e-mails the provider without
 * any health information, is acknowledged with a note, and goes to the administrators when nobody does.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDITC, MEASURE_MESSAGES, PCL5 } from '@telehealth/shared';
import { insertAppointments } from '../src/appointments/appointments.repository.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { measures, measureSchedules, safetyAlerts } from '../src/measures/measures.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient } from './factories/patients.ts';
import { sendQuestionnaire, submitQuestionnaire } from './factories/questionnaires.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const SEND = `mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { id instrument status } }`;
const MINE = '{ myQuestionnaires { id instrument status } }';
const SUBMIT = `mutation ($input: SubmitQuestionnaireInput!) { submitQuestionnaire(input: $input) {
  safetyAlert questionnaire { id status total band answers { item loinc value } } } }`;
const RESULTS = `query ($patientId: ID!) { questionnaireResults(patientId: $patientId) {
  id instrument total band completedAt answers { item loinc value } difficulty } }`;
const ALERTS = `query ($patientId: ID) { safetyAlerts(patientId: $patientId) { id patientId patientName total acknowledgedAt acknowledgedByName } }`;
const ACK = `mutation ($input: AcknowledgeSafetyAlertInput!) { acknowledgeSafetyAlert(input: $input) { id acknowledgedAt acknowledgedByName } }`;
const SCHEDULE = `mutation ($input: QuestionnaireScheduleInput!) { setQuestionnaireSchedule(input: $input) }`;

let t: TestApp;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let patientId: string;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
});

/** The details of the UNAUTHORIZED_ACCESS entries whose `key` names `id`. */
async function denialsNaming(key: string, id: string) {
  const rows = await t.runtime.database.db
    .select({ details: auditEntries.details })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->${key} ? ${id}`));
  return rows.map((r) => r.details);
}

beforeAll(async () => {
  t = await createTestApp({ SAFETY_ALERT_ESCALATION_MINUTES: '30' });
  ({ provider, provider2, providerId } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Rosa', lastName: 'Measures', email: 'rosa.measures@example.net', dateOfBirth: '1991-06-07' },
  }));
});

describe('questionnaires', () => {
  it('goes from the provider to the patient, is scored by the server and stored with its LOINC codes, encrypted', async () => {
    const id = await sendQuestionnaire(provider, patientId, 'gad7');
    const mine = await patient.gql<{ myQuestionnaires: { id: string; instrument: string }[] }>(MINE);
    expect(mine.data!.myQuestionnaires).toContainEqual(expect.objectContaining({ id, instrument: 'gad7' }));

    const answered = await submitQuestionnaire(patient, id, [1, 2, 1, 2, 1, 2, 1]);
    expect(answered.data!.submitQuestionnaire).toMatchObject({
      safetyAlert: false,
      questionnaire: { total: 10, band: 'moderate' },
    });
    expect(answered.data!.submitQuestionnaire.questionnaire.answers[0]).toEqual({
      item: '69725-0',
      loinc: '69725-0',
      value: 1,
    });
    const [row] = await t.runtime.database.db.select().from(measures).where(eq(measures.id, id));
    expect(row!.answers).toMatch(/^enc:/);
    expect(row!.total).toBe(10);

    const again = await submitQuestionnaire(patient, id, [0, 0, 0, 0, 0, 0, 0]);
    expect(errorOf(again).message).toBe(MEASURE_MESSAGES.alreadyCompleted);
    const results = await provider.gql<{ questionnaireResults: { id: string; total: number }[] }>(RESULTS, {
      patientId,
    });
    // The provider reads each answer (the chart shows them item by item) and the difficulty.
    expect(results.data!.questionnaireResults).toContainEqual(
      expect.objectContaining({
        id,
        total: 10,
        difficulty: 1,
        answers: [1, 2, 1, 2, 1, 2, 1].map((value) => ({
          item: expect.any(String) as string,
          loinc: expect.any(String) as string,
          value,
        })),
      }),
    );
  });

  it('sends, scores and bands a PCL-5 (0-4 per item, no difficulty question, no LOINC code per item)', async () => {
    const id = await sendQuestionnaire(provider, patientId, 'pcl5');
    // 33: the provisional cut-point (decision 063).
    const values = [4, 4, 4, 4, 4, 4, 4, 4, 1, ...Array.from({ length: 11 }, () => 0)];
    const answered = await submitQuestionnaire(patient, id, values);
    expect(answered.data!.submitQuestionnaire).toMatchObject({
      safetyAlert: false,
      questionnaire: { total: 33, band: 'probablePtsd' },
    });
    const results = await provider.gql<{ questionnaireResults: { id: string }[] }>(RESULTS, { patientId });
    expect(results.data!.questionnaireResults.find((r) => r.id === id)).toMatchObject({
      instrument: 'pcl5',
      // Sent with a difficulty by the factory; the PCL-5 has none, so none is kept.
      difficulty: null,
      answers: PCL5.items.map((item, i) => ({ item: item.id, loinc: null, value: values[i] })),
    });
    const alerts = await t.runtime.database.db.select().from(safetyAlerts).where(eq(safetyAlerts.measureId, id));
    expect(alerts).toEqual([]);
  });

  it('sends, scores and bands an AUDIT-C, each item on its own 0-4 answers', async () => {
    const id = await sendQuestionnaire(provider, patientId, 'auditc');
    const answered = await submitQuestionnaire(patient, id, [1, 1, 1]);
    expect(answered.data!.submitQuestionnaire).toMatchObject({
      safetyAlert: false,
      questionnaire: { total: 3, band: 'positive' },
    });
    expect(answered.data!.submitQuestionnaire.questionnaire.answers.map((a) => a.loinc)).toEqual(
      AUDITC.items.map((item) => item.loinc),
    );
    const high = await sendQuestionnaire(provider, patientId, 'auditc');
    expect((await submitQuestionnaire(patient, high, [4, 4, 0])).data!.submitQuestionnaire.questionnaire).toMatchObject(
      {
        total: 8,
        band: 'high',
      },
    );
  });

  it('refuses an answer off its own scale: a 4 on the PHQ-9, a 5 anywhere', async () => {
    const phq = await sendQuestionnaire(provider, patientId, 'phq9');
    const four = await submitQuestionnaire(patient, phq, [0, 0, 0, 0, 0, 0, 0, 0, 4]);
    expect(errorOf(four)).toMatchObject({ code: 'BAD_USER_INPUT', message: MEASURE_MESSAGES.answerOffScale });
    const audit = await sendQuestionnaire(provider, patientId, 'auditc');
    const five = await submitQuestionnaire(patient, audit, [0, 0, 5]);
    // Off every scale: the input schema refuses it before the instrument is read.
    expect(errorOf(five)).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringContaining(MEASURE_MESSAGES.answerOffScale) as string,
    });
    const rows = await t.runtime.database.db.select().from(measures).where(eq(measures.id, audit));
    expect(rows[0]).toMatchObject({ status: 'pending', total: null });
  });

  it('refuses an incomplete form and scores nothing', async () => {
    const id = await sendQuestionnaire(provider, patientId, 'phq9');
    const response = await submitQuestionnaire(patient, id, [1, 1, 1]);
    expect(errorOf(response)).toMatchObject({ code: 'BAD_USER_INPUT', message: MEASURE_MESSAGES.answerEveryItem });
    const [row] = await t.runtime.database.db.select().from(measures).where(eq(measures.id, id));
    expect(row).toMatchObject({ status: 'pending', total: null, answers: null });
  });

  it('is not sent to another provider’s patient, and another patient cannot fill it in', async () => {
    expect(errorOf(await provider2.gql(SEND, { input: { patientId, instrument: 'phq9' } })).code).toBe('NOT_FOUND');
    const id = await sendQuestionnaire(provider, patientId, 'gad7');
    const stranger = await provider2.gql(SUBMIT, { input: { id, answers: [0, 0, 0, 0, 0, 0, 0] } });
    expect(errorOf(stranger).code).toBe('FORBIDDEN');
    // Another patient is answered as if the questionnaire did not exist, and the attempt is recorded.
    const { client: otherPatient } = await createPortalPatient(t, provider);
    const other = await otherPatient.gql(SUBMIT, { input: { id, answers: [0, 0, 0, 0, 0, 0, 0] } });
    expect(errorOf(other)).toEqual({ code: 'NOT_FOUND', message: MEASURE_MESSAGES.notFound });
    expect(await denialsNaming('measureIds', id)).toEqual([
      { permission: 'measure:respond:any', reason: "not in the caller's scope", measureIds: [id] },
    ]);
    const [row] = await t.runtime.database.db.select().from(measures).where(eq(measures.id, id));
    expect(row!.status).toBe('pending');
  });

  it('goes out before each visit on a standing order, once per visit', async () => {
    const set = await provider.gql(SCHEDULE, { input: { patientId, instrument: 'phq9', beforeEachVisit: true } });
    expect(set.data).toEqual({ setQuestionnaireSchedule: ['phq9'] });
    const startsAt = new Date(Date.now() + 24 * 3_600_000);
    const [appointment] = await insertAppointments(
      t.runtime.database.db,
      [
        {
          patientId,
          providerId,
          startsAt,
          endsAt: new Date(startsAt.getTime() + 30 * 60_000),
          timeZone: t.runtime.config.settings.current().timeZone,
          duration: 30,
          appointmentType: 'video',
          status: 'scheduled',
          reason: 'Follow-up',
          createdBy: providerId,
        },
      ],
      t.runtime.keyring,
    );
    expect(await t.runtime.measures.sendBeforeVisits()).toBe(1);
    expect(await t.runtime.measures.sendBeforeVisits()).toBe(0);
    const [row] = await t.runtime.database.db
      .select()
      .from(measures)
      .where(eq(measures.appointmentId, appointment!.id));
    expect(row).toMatchObject({ instrument: 'phq9', status: 'pending', requestedBy: null });
    await provider.gql(SCHEDULE, { input: { patientId, instrument: 'phq9', beforeEachVisit: false } });
    expect(
      await t.runtime.database.db.select().from(measureSchedules).where(eq(measureSchedules.patientId, patientId)),
    ).toEqual([]);
  });
});

describe('the safety path', () => {
  let alertId: string;

  it('raises an alert for a PHQ-9 with item 9 above 0 and e-mails the provider within a minute, naming nothing', async () => {
    const id = await sendQuestionnaire(provider, patientId, 'phq9');
    const answered = await submitQuestionnaire(patient, id, [1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(answered.data!.submitQuestionnaire).toMatchObject({ safetyAlert: true, questionnaire: { total: 9 } });
    const [alert] = await t.runtime.database.db.select().from(safetyAlerts).where(eq(safetyAlerts.measureId, id));
    expect(alert).toBeDefined();
    alertId = alert!.id;

    await t.runtime.jobs.drain();
    const [mail] = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'safety-alert'))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    expect(mail?.toAddress).toBe('provider@demo.test');
    const text = `${mail!.subject}\n${mail!.textBody}\n${mail!.htmlBody}`;
    for (const secret of ['Rosa', 'Measures', 'PHQ', 'questionnaire', 'item 9', 'suicid', 'dead', 'hurting']) {
      expect(text.toLowerCase(), `the mail mentions ${secret}`).not.toContain(secret.toLowerCase());
    }
    const [notified] = await t.runtime.database.db.select().from(safetyAlerts).where(eq(safetyAlerts.id, alertId));
    expect(notified!.notifiedAt).not.toBeNull();
  });

  it('shows the alert to the patient’s provider, not to another', async () => {
    const mine = await provider.gql<{ safetyAlerts: { id: string; patientName: string }[] }>(ALERTS);
    expect(mine.data!.safetyAlerts).toContainEqual(
      expect.objectContaining({ id: alertId, patientName: 'Rosa Measures' }),
    );
    const other = await provider2.gql<{ safetyAlerts: { id: string }[] }>(ALERTS);
    expect(other.data!.safetyAlerts.map((a) => a.id)).not.toContain(alertId);
    // Nor can another provider acknowledge it: answered as a missing alert, the attempt recorded.
    const ack = await provider2.gql(ACK, { input: { id: alertId, note: 'Not my patient.' } });
    expect(errorOf(ack)).toEqual({ code: 'NOT_FOUND', message: MEASURE_MESSAGES.alertNotFound });
    expect(await denialsNaming('alertIds', alertId)).toEqual([
      { permission: 'alert:acknowledge:any', reason: "not in the caller's scope", alertIds: [alertId] },
    ]);
  });

  it('goes to the administrators when nobody acknowledged it in time, without clinical content', async () => {
    const { rows } = await t.runtime.database.pool.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM run_at - now()) / 60)::int AS minutes FROM graphile_worker.jobs
       WHERE task_identifier = 'safety-alert:escalate' AND key = $1`,
      [`safety-alert:escalate:${alertId}`],
    );
    expect(rows[0]?.minutes).toBeGreaterThanOrEqual(29);
    // The time passes: run the job as the queue would.
    await t.runtime.measures.escalateAlert(alertId);
    await t.runtime.measures.escalateAlert(alertId);
    const mails = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'safety-alert-escalation'));
    expect(mails.map((m) => m.toAddress)).toEqual(['admin@demo.test']);
    expect(mails[0]!.textBody).toContain('30 minutes');
    expect(mails[0]!.textBody).not.toContain('Rosa');
  });

  it('stays until the provider acknowledges it with a note; every step is audited', async () => {
    const short = await provider.gql(ACK, { input: { id: alertId, note: ' ' } });
    expect(errorOf(short).message).toContain(MEASURE_MESSAGES.acknowledgementRequired);
    const ack = await provider.gql<{ acknowledgeSafetyAlert: { acknowledgedAt: string | null } }>(ACK, {
      input: { id: alertId, note: 'Called the patient; safety plan reviewed.' },
    });
    expect(ack.data!.acknowledgeSafetyAlert.acknowledgedAt).not.toBeNull();
    const open = await provider.gql<{ safetyAlerts: { id: string }[] }>(ALERTS);
    expect(open.data!.safetyAlerts.map((a) => a.id)).not.toContain(alertId);
    const twice = await provider.gql(ACK, { input: { id: alertId, note: 'Again' } });
    expect(errorOf(twice).message).toBe(MEASURE_MESSAGES.alertAlreadyAcknowledged);
    const [row] = await t.runtime.database.db.select().from(safetyAlerts).where(eq(safetyAlerts.id, alertId));
    expect(row!.acknowledgement).toMatch(/^enc:/);
    // The chart shows what was done, to the patient's provider, and the read is recorded.
    const chart = await provider.gql<{ safetyAlerts: { id: string; acknowledgement: string | null }[] }>(
      `query ($patientId: ID) { safetyAlerts(patientId: $patientId) { id acknowledgement } }`,
      { patientId },
    );
    expect(chart.data!.safetyAlerts).toContainEqual({
      id: alertId,
      acknowledgement: 'Called the patient; safety plan reviewed.',
    });
    const [viewed] = await t.runtime.database.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'SAFETY_ALERT_VIEW'), sql`${auditEntries.details}->'alertIds' ? ${alertId}`));
    expect(viewed).toBeDefined();

    const events = await t.runtime.database.db
      .select({ event: auditEntries.event })
      .from(auditEntries)
      .where(and(sql`${auditEntries.details}->>'alertId' = ${alertId}`));
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'SAFETY_ALERT_RAISED',
        'SAFETY_ALERT_NOTIFIED',
        'SAFETY_ALERT_ESCALATED',
        'SAFETY_ALERT_ACKNOWLEDGED',
      ]),
    );
    // An acknowledged alert is not escalated any more.
    const before = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'safety-alert-escalation'));
    await t.runtime.measures.escalateAlert(alertId);
    const after = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'safety-alert-escalation'));
    expect(after).toHaveLength(before.length);
  });
});
