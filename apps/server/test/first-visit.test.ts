import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_VISIT_MAX_REMINDERS } from '@telehealth/shared';
import { firstVisitReminders } from '../src/first-visit/first-visit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createAppointment, nextWeekday } from './factories/appointments.ts';
import { submittedIntake } from './factories/intake.ts';
import { signPracticeDocument } from './factories/practice-documents.ts';
import { sendQuestionnaire, submitQuestionnaire } from './factories/questionnaires.ts';
import { createPatient, createPortalPatient, type PortalPatient } from './factories/patients.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';
import { linkToken } from './mail-helpers.ts';

const CHECKLIST = '{ myFirstVisitChecklist { kind id versionId documentKind titleEn status instrument } }';
const READINESS =
  'query ($ids: [ID!]!) { patientReadiness(patientIds: $ids) { patientId intakeStatus intakeBadge consentMissing } }';
const DETAILS = {
  firstName: 'Tom',
  lastName: 'Firstvisit',
  dateOfBirth: '1985-04-12',
  phone: '(212) 555-0142',
  street: '12 Elm Street',
  city: 'Springfield',
  state: 'NY',
  zipCode: '10001',
  emergencyContactName: 'Ana Firstvisit',
  emergencyContactPhone: '(212) 555-0199',
};

function errorOf(response: GraphQLResponse): { code: unknown } {
  return { code: response.errors?.[0]?.extensions?.code };
}

interface Item {
  kind: string;
  id: string;
  versionId: string | null;
  documentKind: string | null;
  titleEn: string | null;
  status: string;
  instrument: string | null;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let providerId: string;
let provider2Id: string;
let week = 0;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, providerId, provider2Id } = await demoClients(t));
});

async function checklist(client: TestClient): Promise<Item[]> {
  const response = await client.gql<{ myFirstVisitChecklist: Item[] }>(CHECKLIST);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.myFirstVisitChecklist;
}

function book(patientId: string) {
  return createAppointment(provider, {
    patientId,
    providerId,
    date: nextWeekday(2, ++week),
    allowOutsideHours: true,
  });
}

async function jobsOf(patientId: string) {
  const result = await t.runtime.database.db.execute<{ key: string; run_at: string }>(
    sql`SELECT key, run_at FROM graphile_worker.jobs WHERE key = ${`first-visit:remind:${patientId}`}`,
  );
  return result.rows;
}

async function mailsTo(address: string) {
  return t.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, address), eq(mailOutbox.kind, 'first-visit-reminder')))
    .orderBy(asc(mailOutbox.createdAt));
}

/** Signs every outstanding document, submits the intake and answers every questionnaire. */
async function completeEverything(patient: PortalPatient) {
  for (const item of await checklist(patient.client)) {
    if (item.kind === 'document') {
      const signed = await signPracticeDocument(patient.client, { versionId: item.versionId });
      if (!signed.data) throw new Error(JSON.stringify(signed.errors));
    }
    if (item.kind === 'questionnaire') await submitQuestionnaire(patient.client, item.id, [0, 0, 0, 0, 0, 0, 0, 0, 0]);
  }
  await submittedIntake(patient.client, patient.patientId, { details: DETAILS });
}

/** Moves the patient's sent e-mails two days and more into the past, as if time had gone by. */
async function ageReminders(patientId: string) {
  await t.runtime.database.db
    .update(firstVisitReminders)
    .set({ sentAt: sql`${firstVisitReminders.sentAt} - interval '3 days'` })
    .where(eq(firstVisitReminders.patientId, patientId));
}

describe('the patient checklist', () => {
  it('lists documents, the intake and questionnaires, and empties as each is done', async () => {
    const patient = await createPortalPatient(t, provider);
    const questionnaireId = await sendQuestionnaire(provider, patient.patientId, 'phq9');
    const items = await checklist(patient.client);
    expect(items.filter((i) => i.kind === 'document').map((i) => i.documentKind)).toContain('telehealth-consent');
    expect(items.find((i) => i.kind === 'intake')).toMatchObject({ status: 'not-started' });
    expect(items.find((i) => i.kind === 'questionnaire')).toMatchObject({ id: questionnaireId, instrument: 'phq9' });

    const consent = items.find((i) => i.documentKind === 'telehealth-consent')!;
    await signPracticeDocument(patient.client, { versionId: consent.versionId });
    expect((await checklist(patient.client)).some((i) => i.documentKind === 'telehealth-consent')).toBe(false);

    await completeEverything(patient);
    // Submitted, waiting for the provider: nothing left for the patient.
    expect(await checklist(patient.client)).toEqual([]);
  });

  it('refuses staff and audits the patient’s own read with ids only', async () => {
    expect(errorOf(await provider.gql(CHECKLIST)).code).toBe('FORBIDDEN');
    const patient = await createPortalPatient(t, provider);
    await checklist(patient.client);
    const result = await t.runtime.database.db.execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_entries WHERE event = 'FIRST_VISIT_CHECKLIST_VIEW' ORDER BY id DESC LIMIT 1`,
    );
    expect(result.rows[0]?.details).toMatchObject({ patientIds: [patient.patientId] });
    expect(JSON.stringify(result.rows[0]?.details)).not.toContain('Telehealth');
  });
});

describe('the e-mail and its reminders', () => {
  it('queues the job at the first booking only', async () => {
    const patient = await createPortalPatient(t, provider);
    await book(patient.patientId);
    expect(await jobsOf(patient.patientId)).toHaveLength(1);
    await t.runtime.database.db.execute(
      sql`SELECT graphile_worker.remove_job(${`first-visit:remind:${patient.patientId}`})`,
    );
    await book(patient.patientId);
    expect(await jobsOf(patient.patientId)).toHaveLength(0);
  });

  it('queues the job when a patient’s account is activated, and writes in their language', async () => {
    const record = await createPatient(provider);
    const invited = await admin.gql('mutation ($input: InviteUserInput!) { inviteUser(input: $input) { id } }', {
      input: { role: 'patient', email: record.email, patientId: record.id },
    });
    expect(invited.errors).toBeUndefined();
    expect(await jobsOf(record.id)).toHaveLength(0);
    const [invitation] = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, record.email), eq(mailOutbox.kind, 'invitation')));
    const accepted = await new TestClient(t.app).gql(
      'mutation ($token: String!, $password: String!) { acceptInvitation(token: $token, password: $password) { success } }',
      { token: linkToken(invitation!.textBody!, '/invite'), password: 'First-Visit-Pass-2026!' },
    );
    expect(accepted.errors).toBeUndefined();
    expect(await jobsOf(record.id)).toHaveLength(1);
    // The first e-mail goes (something is outstanding, no visit behind) in the account's language.
    await t.runtime.database.db.execute(sql`UPDATE users SET language = 'es' WHERE email = ${record.email}`);
    await t.runtime.services.firstVisit.remind(record.id);
    expect((await mailsTo(record.email)).map((m) => m.subject)).toEqual(['Antes de su primera visita']);
  });

  it('sends an e-mail without health information, once per run, three at most', async () => {
    const patient = await createPortalPatient(t, provider);
    await book(patient.patientId);
    const { firstVisit } = t.runtime.services;
    await firstVisit.remind(patient.patientId);
    await firstVisit.remind(patient.patientId);
    const [mail, ...more] = await mailsTo(patient.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Before your first visit');
    expect(mail!.textBody).toContain(
      'You have a few things to complete in your patient portal before your first visit',
    );
    for (const secret of ['Telehealth', 'consent', 'PHQ', 'Medication', 'Provider', 'Demo', 'intake']) {
      expect(`${mail!.subject} ${mail!.textBody} ${mail!.htmlBody}`).not.toContain(secret);
    }
    // The next one is set two days later.
    const [job] = await jobsOf(patient.patientId);
    expect(new Date(job!.run_at).getTime()).toBeGreaterThan(Date.now() + 47 * 3_600_000);

    for (let i = 0; i < 4; i++) {
      await ageReminders(patient.patientId);
      await firstVisit.remind(patient.patientId);
    }
    expect(await mailsTo(patient.email)).toHaveLength(FIRST_VISIT_MAX_REMINDERS);
  });

  it('sends nothing and stops when nothing is outstanding', async () => {
    const patient = await createPortalPatient(t, provider);
    await book(patient.patientId);
    await completeEverything(patient);
    await t.runtime.services.firstVisit.remind(patient.patientId);
    expect(await mailsTo(patient.email)).toEqual([]);
  });

  it('stops once the patient has done everything', async () => {
    const patient = await createPortalPatient(t, provider);
    await book(patient.patientId);
    await t.runtime.services.firstVisit.remind(patient.patientId);
    await completeEverything(patient);
    await ageReminders(patient.patientId);
    await t.runtime.services.firstVisit.remind(patient.patientId);
    expect(await mailsTo(patient.email)).toHaveLength(1);
  });
});

describe('readiness for staff', () => {
  it('answers the badges of a provider’s own patients and refuses another provider’s', async () => {
    const patient = await createPortalPatient(t, provider);
    const own = await provider.gql<{ patientReadiness: unknown[] }>(READINESS, { ids: [patient.patientId] });
    expect(own.data!.patientReadiness).toEqual([
      { patientId: patient.patientId, intakeStatus: 'not-started', intakeBadge: 'incomplete', consentMissing: true },
    ]);
    expect(errorOf(await provider2.gql(READINESS, { ids: [patient.patientId] })).code).toBe('NOT_FOUND');
    // A visit with provider 2 puts the patient on their calendar: they see the badges from then on.
    await createAppointment(admin, {
      patientId: patient.patientId,
      providerId: provider2Id,
      date: nextWeekday(3, ++week),
      allowOutsideHours: true,
    });
    const seen = await provider2.gql<{ patientReadiness: { patientId: string }[] }>(READINESS, {
      ids: [patient.patientId],
    });
    expect(seen.data!.patientReadiness.map((row) => row.patientId)).toEqual([patient.patientId]);

    await completeEverything(patient);
    const after = await admin.gql<{ patientReadiness: unknown[] }>(READINESS, { ids: [patient.patientId] });
    expect(after.data!.patientReadiness).toEqual([
      { patientId: patient.patientId, intakeStatus: 'submitted', intakeBadge: 'to-review', consentMissing: false },
    ]);
  });
});
