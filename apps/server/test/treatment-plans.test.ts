/**
 * The treatment plan (issue 27, point 3) against the real server: the provider writes a draft and signs it with
 * their password (a wrong one signs nothing); the patient sees only signed versions and acknowledges the latest
 * once; editing after a signature starts the next version, the signed one kept unchanged; another provider and
 * the administrators do not reach it, emergency access reads it; the review reminder e-mails the provider without
 * health information; the content is encrypted and the audit entries carry ids only.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_RECORD_MESSAGES, DEMO_PASSWORD, PATIENT_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { treatmentPlanVersions } from '../src/clinical-record/treatment-plans.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const FIELDS = `id planId patientId version status signed problems { diagnosisId code title }
  goals { description instrument targetBelow targetDate } interventions targetDate reviewDate
  createdByName signedByName signedAt acknowledgedAt`;
const CURRENT = `query ($patientId: ID!) { treatmentPlan(patientId: $patientId) { ${FIELDS} } }`;
const HISTORY = `query ($planId: ID!) { treatmentPlanHistory(planId: $planId) { ${FIELDS} } }`;
const SAVE = `mutation ($input: SaveTreatmentPlanInput!) { saveTreatmentPlan(input: $input) { ${FIELDS} } }`;
const SIGN = `mutation ($input: SignTreatmentPlanInput!) { signTreatmentPlan(input: $input) { ${FIELDS} } }`;
const ACKNOWLEDGE = `mutation ($versionId: ID!) { acknowledgeTreatmentPlan(versionId: $versionId) { ${FIELDS} } }`;
const DUE = '{ treatmentPlansDueForReview { planId versionId version patientId patientName reviewDate } }';
/** The pending review reminders: their key, time and version. */
const REVIEW_JOBS = sql`SELECT j.key, j.run_at::text AS run_at, j.payload FROM graphile_worker._private_jobs j
  JOIN graphile_worker._private_tasks k ON k.id = j.task_id WHERE k.identifier = 'treatment-plan:review-due'`;
const ADD_DIAGNOSIS = 'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }';
const BREAK_GLASS = 'mutation ($input: RequestEmergencyAccessInput!) { requestEmergencyAccess(input: $input) { id } }';

interface PlanVersion {
  id: string;
  planId: string;
  version: number;
  status: string;
  signed: boolean;
  problems: { diagnosisId: string; code: string; title: string }[];
  goals: { description: string; instrument: string | null; targetBelow: number | null; targetDate: string | null }[];
  interventions: string[];
  reviewDate: string;
  signedByName: string | null;
  signedAt: string | null;
  acknowledgedAt: string | null;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let patientId: string;
let diagnosisId: string;

const db = () => t.runtime.database.db;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
  fields: (response.errors?.[0]?.extensions as { fields?: { field: string; messageId: string }[] } | undefined)?.fields,
});

function planInput(overrides: Record<string, unknown> = {}) {
  return {
    patientId,
    status: 'active',
    problemIds: [diagnosisId],
    goals: [
      { description: 'Mood lifts', instrument: 'phq9', targetBelow: 10, targetDate: '2027-03-01' },
      { description: 'Back at work three days a week' },
    ],
    interventions: ['Sertraline, titrate to effect', 'Weekly CBT sessions'],
    targetDate: '2027-06-01',
    reviewDate: '2027-01-15',
    ...overrides,
  };
}

async function save(client: TestClient, overrides: Record<string, unknown> = {}) {
  return client.gql<{ saveTreatmentPlan: PlanVersion }>(SAVE, { input: planInput(overrides) });
}

async function current(client: TestClient) {
  return client.gql<{ treatmentPlan: PlanVersion | null }>(CURRENT, { patientId });
}

async function eventsFor(event: string, id: string) {
  return db()
    .select({ details: auditEntries.details, userId: auditEntries.userId })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->'patientIds' ? ${id}`));
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2 } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Tomas', lastName: 'Planner', email: 'tomas.planner@example.net', dateOfBirth: '1979-05-06' },
  }));
  const added = await provider.gql<{ addDiagnosis: { id: string } }>(ADD_DIAGNOSIS, {
    input: { patientId, code: 'F33.1', status: 'active' },
  });
  diagnosisId = added.data!.addDiagnosis.id;
});

describe('the treatment plan', () => {
  let first: PlanVersion;

  it('saves a draft with its problems, goals and interventions, encrypted, and rewrites it when saved again', async () => {
    const saved = await save(provider, { interventions: ['Weekly CBT sessions'] });
    expect(saved.errors).toBeUndefined();
    first = saved.data!.saveTreatmentPlan;
    expect(first).toMatchObject({
      version: 1,
      signed: false,
      problems: [{ diagnosisId, code: 'F33.1' }],
      goals: [
        { description: 'Mood lifts', instrument: 'phq9', targetBelow: 10, targetDate: '2027-03-01' },
        { description: 'Back at work three days a week', instrument: null, targetBelow: null },
      ],
      reviewDate: '2027-01-15',
    });
    const again = (await save(provider)).data!.saveTreatmentPlan;
    expect(again).toMatchObject({ id: first.id, version: 1 });
    expect(again.interventions).toEqual(['Sertraline, titrate to effect', 'Weekly CBT sessions']);
    const [row] = await db().select().from(treatmentPlanVersions).where(eq(treatmentPlanVersions.id, first.id));
    expect(row!.content).toMatch(/^enc:/);
    expect(row!.content).not.toMatch(/CBT|Mood/);
    const saves = await eventsFor('TREATMENT_PLAN_SAVE', patientId);
    expect(saves).toHaveLength(2);
    expect(JSON.stringify(saves)).not.toMatch(/CBT|Mood|F33|Sertraline/);
  });

  it('refuses a goal target out of the scale, a target without its questionnaire, a foreign problem, no review date', async () => {
    const refusals: [Record<string, unknown>, string, string][] = [
      [
        { goals: [{ description: 'Less anxious', instrument: 'gad7', targetBelow: 30 }] },
        'goals.0.targetBelow',
        'targetOutOfRange',
      ],
      [{ goals: [{ description: 'Less anxious', targetBelow: 5 }] }, 'goals.0.instrument', 'targetNeedsInstrument'],
      [{ goals: [{ description: '  ' }] }, 'goals.0.description', 'goalRequired'],
      [{ problemIds: ['00000000-0000-4000-8000-000000000000'] }, 'problemIds', 'problemNotPatients'],
      [{ reviewDate: null }, 'reviewDate', 'reviewDateRequired'],
      [{ status: 'paused' }, 'status', 'choosePlanStatus'],
    ];
    for (const [overrides, field, key] of refusals) {
      const refused = errorOf(await save(provider, overrides));
      expect(refused.code, key).toBe('BAD_USER_INPUT');
      expect(refused.fields).toEqual([expect.objectContaining({ field, messageId: `clinicalRecordMessages.${key}` })]);
    }
    const control = errorOf(await save(provider, { interventions: ['Weekly\u0000 CBT'] }));
    expect(control.code).toBe('BAD_USER_INPUT');
  });

  it('shows the patient no draft', async () => {
    const seen = await current(patient);
    expect(seen.errors).toBeUndefined();
    expect(seen.data!.treatmentPlan).toBeNull();
  });

  it('signs only with the right password: a wrong one signs nothing and is recorded', async () => {
    const wrong = await provider.gql(SIGN, { input: { id: first.id, password: 'not-the-password' } });
    expect(errorOf(wrong).code).toBe('BAD_USER_INPUT');
    const [row] = await db().select().from(treatmentPlanVersions).where(eq(treatmentPlanVersions.id, first.id));
    expect(row!.signedAt).toBeNull();
    const failures = await db().select().from(auditEntries).where(eq(auditEntries.event, 'TREATMENT_PLAN_SIGN_FAILED'));
    expect(failures).toHaveLength(1);

    const signed = await provider.gql<{ signTreatmentPlan: PlanVersion }>(SIGN, {
      input: { id: first.id, password: DEMO_PASSWORD },
    });
    expect(signed.errors).toBeUndefined();
    expect(signed.data!.signTreatmentPlan.signed).toBe(true);
    expect(signed.data!.signTreatmentPlan.signedByName).toBeTruthy();
    const [entry] = await eventsFor('TREATMENT_PLAN_SIGN', patientId);
    expect(entry!.details).toMatchObject({ versionId: first.id, version: 1, confirmedWith: 'password' });
    const again = await provider.gql(SIGN, { input: { id: first.id, password: DEMO_PASSWORD } });
    expect(errorOf(again).message).toBe(CLINICAL_RECORD_MESSAGES.planAlreadySigned);
  });

  it('schedules the review reminder at 09:00 of the review date in the practice time zone, one per plan', async () => {
    const jobs = await db().execute<{ key: string; run_at: string; payload: { versionId: string } }>(REVIEW_JOBS);
    expect(jobs.rows).toHaveLength(1);
    expect(jobs.rows[0]).toMatchObject({
      key: `treatment-plan:review-due:${first.planId}`,
      payload: { versionId: first.id },
    });
    const zone = t.runtime.settings.current().timeZone;
    const local = new Date(jobs.rows[0]!.run_at).toLocaleString('sv-SE', { timeZone: zone });
    expect(local).toBe('2027-01-15 09:00:00');
  });

  it('lets the patient read the signed plan and acknowledge it once', async () => {
    const seen = (await current(patient)).data!.treatmentPlan!;
    expect(seen).toMatchObject({ id: first.id, signed: true, acknowledgedAt: null });
    const acknowledged = await patient.gql<{ acknowledgeTreatmentPlan: PlanVersion }>(ACKNOWLEDGE, {
      versionId: first.id,
    });
    expect(acknowledged.errors).toBeUndefined();
    expect(acknowledged.data!.acknowledgeTreatmentPlan.acknowledgedAt).not.toBeNull();
    const twice = await patient.gql(ACKNOWLEDGE, { versionId: first.id });
    expect(errorOf(twice).message).toBe(CLINICAL_RECORD_MESSAGES.planAlreadyAcknowledged);
    expect(await eventsFor('TREATMENT_PLAN_ACKNOWLEDGE', patientId)).toHaveLength(1);
    const byProvider = await provider.gql(ACKNOWLEDGE, { versionId: first.id });
    expect(errorOf(byProvider)).toMatchObject({
      code: 'FORBIDDEN',
      message: CLINICAL_RECORD_MESSAGES.cannotAcknowledgePlan,
    });
  });

  it('starts version 2 when the signed plan is edited, and keeps version 1 as it was', async () => {
    const before = await db().select().from(treatmentPlanVersions).where(eq(treatmentPlanVersions.id, first.id));
    const edited = (await save(provider, { interventions: ['Weekly CBT sessions', 'Sleep hygiene'] })).data!
      .saveTreatmentPlan;
    expect(edited).toMatchObject({ version: 2, signed: false, planId: first.planId });
    expect(edited.id).not.toBe(first.id);
    const after = await db().select().from(treatmentPlanVersions).where(eq(treatmentPlanVersions.id, first.id));
    expect(after).toEqual(before);
    // The provider sees the draft; the patient still the signed version 1.
    expect((await current(provider)).data!.treatmentPlan!.version).toBe(2);
    expect((await current(patient)).data!.treatmentPlan!.version).toBe(1);
    const history = await provider.gql<{ treatmentPlanHistory: PlanVersion[] }>(HISTORY, { planId: first.planId });
    expect(history.data!.treatmentPlanHistory.map((v) => [v.version, v.signed])).toEqual([
      [2, false],
      [1, true],
    ]);
    const patientHistory = await patient.gql<{ treatmentPlanHistory: PlanVersion[] }>(HISTORY, {
      planId: first.planId,
    });
    expect(patientHistory.data!.treatmentPlanHistory.map((v) => v.version)).toEqual([1]);
    // Once version 2 is signed, version 1 can no longer be acknowledged (it is not the latest).
    await provider.gql(SIGN, { input: { id: edited.id, password: DEMO_PASSWORD } });
    const jobs = await db().execute<{ payload: { versionId: string } }>(REVIEW_JOBS);
    expect(jobs.rows.map((j) => j.payload.versionId)).toEqual([edited.id]);
  });

  it('answers another provider like a missing patient or plan, and records the attempts; administrators are refused', async () => {
    expect(errorOf(await current(provider2))).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    expect(errorOf(await save(provider2))).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    const history = await provider2.gql(HISTORY, { planId: first.planId });
    expect(errorOf(history).message).toBe(CLINICAL_RECORD_MESSAGES.treatmentPlanNotFound);
    const denials = await eventsFor('UNAUTHORIZED_ACCESS', patientId);
    expect(denials.length).toBeGreaterThanOrEqual(3);
    expect(errorOf(await current(admin))).toMatchObject({
      code: 'FORBIDDEN',
      message: CLINICAL_RECORD_MESSAGES.cannotView,
    });
    expect(errorOf(await admin.gql(DUE)).code).toBe('FORBIDDEN');
  });

  it('opens read only under emergency access', async () => {
    const grant = await provider2.gql(BREAK_GLASS, {
      input: { patientId, reason: 'Patient in crisis, primary provider unreachable' },
    });
    expect(grant.errors).toBeUndefined();
    const read = await current(provider2);
    expect(read.errors).toBeUndefined();
    expect(read.data!.treatmentPlan!.version).toBe(2);
    expect(errorOf(await save(provider2)).code).toBe('NOT_FOUND');
  });

  it('lists the plans due for review on the provider dashboard', async () => {
    const due = (await save(provider, { reviewDate: '2020-01-01' })).data!.saveTreatmentPlan;
    expect(
      (await provider.gql<{ treatmentPlansDueForReview: unknown[] }>(DUE)).data!.treatmentPlansDueForReview,
    ).toEqual([]);
    await provider.gql(SIGN, { input: { id: due.id, password: DEMO_PASSWORD } });
    const listed = (
      await provider.gql<{ treatmentPlansDueForReview: { versionId: string; patientName: string }[] }>(DUE)
    ).data!.treatmentPlansDueForReview;
    expect(listed).toEqual([expect.objectContaining({ versionId: due.id, patientName: 'Tomas Planner' })]);
    expect(
      (await provider2.gql<{ treatmentPlansDueForReview: unknown[] }>(DUE)).data!.treatmentPlansDueForReview,
    ).toEqual([]);
  });

  it('reminds the provider at the review date with a mail that carries no health information, and records it', async () => {
    const latest = (await current(provider)).data!.treatmentPlan!;
    const reminders = () => db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'treatment-plan-review-due'));
    // The queue runs the reminder of the version signed with a past review date by itself: let it finish first, so
    // that it cannot add its mail between the count and the checks below.
    await t.runtime.jobs.drain();
    const before = (await reminders()).length;
    await t.runtime.treatmentPlans.remindReview(first.id);
    // Version 1 is no longer the current signed one: nothing is sent for it.
    expect(await reminders()).toHaveLength(before);
    await t.runtime.treatmentPlans.remindReview(latest.id);
    expect(await reminders()).toHaveLength(before + 1);
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'treatment-plan-review-due'))
      .orderBy(desc(mailOutbox.createdAt));
    expect(mail?.toAddress).toBe('provider@demo.test');
    const text = `${mail!.subject}\n${mail!.textBody}\n${mail!.htmlBody}`.toLowerCase();
    expect(text).toContain('a treatment plan review is due');
    for (const secret of ['Tomas', 'Planner', 'F33', 'depress', 'CBT', 'Sertraline', 'PHQ', 'Mood']) {
      expect(text, `the mail mentions ${secret}`).not.toContain(secret.toLowerCase());
    }
    const [entry] = await eventsFor('TREATMENT_PLAN_REVIEW_DUE', patientId);
    expect(entry!.userId).toBe('system');
    expect(entry!.details).toMatchObject({ versionId: latest.id, recipients: 1 });
  });
});
