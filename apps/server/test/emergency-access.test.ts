/**
 * Emergency access, "break the glass" (decision 036), against the real server: only providers break it, with a
 * reason; during the grant the provider reads the chart, notes (never psychotherapy notes) and questionnaire
 * results, each read audited with the grant's id; it ends at its time; the administrators are alerted by a mail
 * without health information and on their console; the use is a critical audit event; only administrators review.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, EMERGENCY_ACCESS_MESSAGES, isCriticalEvent, messageText } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { measures } from '../src/measures/measures.table.ts';
import { emergencyAccessGrants } from '../src/emergency-access/emergency-access.table.ts';
import { measuresEncrypted } from '../src/keys/encrypted-columns.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';

const REQUEST = `mutation ($input: RequestEmergencyAccessInput!) {
  requestEmergencyAccess(input: $input) { id patientId startedAt endsAt } }`;
const MINE = 'query ($patientId: ID!) { myEmergencyAccess(patientId: $patientId) { id endsAt } }';
const END = 'mutation ($id: ID!) { endEmergencyAccess(id: $id) }';
const CHART = 'query ($id: ID!) { patientChart(id: $id) { id firstName allergies } }';
const LIST_PATIENTS = '{ listPatients(limit: 100) { items { id } } }';
const NOTES = `query ($filter: NoteFilterInput) { listNotes(limit: 50, filter: $filter) {
  items { id title content isPrivate } nextToken } }`;
const GET_NOTE = 'query ($id: ID!) { getNote(id: $id) { id content } }';
const RESULTS = 'query ($patientId: ID!) { questionnaireResults(patientId: $patientId) { id total } }';
const CREATE_NOTE = 'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }';
const ADDENDUM = 'mutation ($input: AddNoteAddendumInput!) { addNoteAddendum(input: $input) { id } }';
const UPDATE_PATIENT = 'mutation ($input: UpdatePatientInput!) { updatePatient(input: $input) { id } }';
const AWAITING = '{ emergencyAccessAwaitingReview }';
const USES = `query ($filter: String) { emergencyAccessUses(filter: $filter) { items {
  id providerName patientName reason activityCount reviewOutcome active } nextToken } }`;
const USE = `query ($id: ID!) { emergencyAccessUse(id: $id) { id reason activityCount activity { event operation }
  reviewOutcome reviewNote reviewedByName } }`;
const REVIEW = `mutation ($input: ReviewEmergencyAccessInput!) { reviewEmergencyAccess(input: $input) {
  id reviewOutcome reviewNote reviewedByName } }`;

const REASON = 'Patient called in acute crisis; primary provider unreachable';

interface Grant {
  id: string;
  patientId: string;
  startedAt: string;
  endsAt: string;
}

let t: TestApp;
let provider: TestClient;
let owner: TestClient;
let patient: TestClient;
let admin: TestClient;
let signedOut: TestClient;
let providerId: string;
let patientId: string;
let noteId: string;
let privateNoteId: string;
let measureId: string;

const db = () => t.runtime.database.db;

function errorOf(response: GraphQLResponse) {
  return { code: response.errors?.[0]?.extensions?.code, message: response.errors?.[0]?.message };
}

async function breakGlass(client: TestClient, input: Record<string, unknown>) {
  return client.gql<{ requestEmergencyAccess: Grant }>(REQUEST, { input });
}

async function grantsCount(): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(emergencyAccessGrants);
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp({ EMERGENCY_ACCESS_MINUTES: '15' });
  [provider, owner, patient, admin, signedOut] = [0, 1, 2, 3, 4].map(() => new TestClient(t.app)) as [
    TestClient,
    TestClient,
    TestClient,
    TestClient,
    TestClient,
  ];
  providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  await owner.signIn('provider2@demo.test', DEMO_PASSWORD);
  await patient.signIn('patient@demo.test', DEMO_PASSWORD);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
  const created = await owner.gql<{ createPatient: { id: string } }>(
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    {
      input: {
        firstName: 'Glass',
        lastName: 'Breaker',
        email: 'glass.breaker@example.net',
        dateOfBirth: '1971-06-15',
        allergies: 'Penicillin',
      },
    },
  );
  patientId = created.data!.createPatient.id;
  noteId = (
    await owner.gql<{ createNote: { id: string } }>(CREATE_NOTE, {
      input: { title: 'Crisis plan', content: 'Call the sister first.', patientId },
    })
  ).data!.createNote.id;
  privateNoteId = (
    await owner.gql<{ createNote: { id: string } }>(CREATE_NOTE, {
      input: { title: 'Process note', content: 'Therapist impressions.', patientId, isPrivate: true },
    })
  ).data!.createNote.id;
  measureId = randomUUID();
  await db()
    .insert(measures)
    .values({
      id: measureId,
      patientId,
      instrument: 'phq9',
      status: 'completed',
      ...measuresEncrypted.seal(t.runtime.keyring, measureId, {
        answers: JSON.stringify({ items: [1, 1, 1, 1, 1, 1, 1, 1, 0], difficulty: null }),
      }),
      total: 8,
      band: 'mild',
      completedAt: new Date(),
    });
});

describe('who may break the glass', () => {
  it('refuses administrators, patients and signed-out callers, and writes no grant', async () => {
    const before = await grantsCount();
    for (const client of [admin, patient]) {
      const response = await breakGlass(client, { patientId, reason: REASON });
      expect(response.data).toBeNull();
      expect(errorOf(response)).toEqual({ code: 'FORBIDDEN', message: expect.any(String) as string });
    }
    const outside = await breakGlass(signedOut, { patientId, reason: REASON });
    expect(errorOf(outside).code).toBe('UNAUTHENTICATED');
    expect(await grantsCount()).toBe(before);
  });

  it('refuses a missing or too short reason with its message, and writes nothing', async () => {
    const before = await grantsCount();
    for (const [reason, message] of [
      ['', EMERGENCY_ACCESS_MESSAGES.reasonRequired],
      ['   ', EMERGENCY_ACCESS_MESSAGES.reasonRequired],
      ['urgent', EMERGENCY_ACCESS_MESSAGES.reasonTooShort],
    ] as const) {
      const response = await breakGlass(provider, { patientId, reason });
      expect(errorOf(response).code).toBe('BAD_USER_INPUT');
      expect(response.errors?.[0]?.message).toContain(message);
    }
    expect(await grantsCount()).toBe(before);
  });

  it('tells the primary provider to open the chart instead', async () => {
    const response = await breakGlass(owner, { patientId, reason: REASON });
    expect(errorOf(response)).toEqual({
      code: 'BAD_USER_INPUT',
      message: messageText('emergencyAccessMessages.alreadyReached'),
    });
  });

  it('finds nobody by a wrong date of birth, and records the attempt', async () => {
    const response = await breakGlass(provider, {
      firstName: 'Glass',
      lastName: 'Breaker',
      dateOfBirth: '1971-06-16',
      reason: REASON,
    });
    expect(errorOf(response)).toEqual({ code: 'NOT_FOUND', message: EMERGENCY_ACCESS_MESSAGES.noMatch });
    const [denial] = await db()
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.userId, providerId)))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(denial?.details).toMatchObject({ permission: 'emergency-access:request:any', matches: 0 });
  });
});

describe('during the grant', () => {
  let grant: Grant;

  it('before it, the provider is refused the chart, the notes and the results', async () => {
    expect(errorOf(await provider.gql(CHART, { id: patientId })).code).toBe('NOT_FOUND');
    expect(errorOf(await provider.gql(RESULTS, { patientId })).code).toBe('NOT_FOUND');
    const notes = await provider.gql<{ listNotes: { items: { id: string }[] } }>(NOTES, { filter: { patientId } });
    expect(notes.data!.listNotes.items).toEqual([]);
  });

  it('opens by exact name and date of birth for EMERGENCY_ACCESS_MINUTES; asking again answers the same grant', async () => {
    const response = await breakGlass(provider, {
      firstName: 'glass',
      lastName: 'BREAKER',
      dateOfBirth: '1971-06-15',
      reason: REASON,
    });
    expect(response.errors).toBeUndefined();
    grant = response.data!.requestEmergencyAccess;
    expect(grant.patientId).toBe(patientId);
    expect(Date.parse(grant.endsAt) - Date.parse(grant.startedAt)).toBe(15 * 60_000);
    const again = await breakGlass(provider, { patientId, reason: REASON });
    expect(again.data!.requestEmergencyAccess.id).toBe(grant.id);
    const mine = await provider.gql<{ myEmergencyAccess: { id: string } | null }>(MINE, { patientId });
    expect(mine.data!.myEmergencyAccess?.id).toBe(grant.id);
    // The reason is stored encrypted.
    const [row] = await db().select().from(emergencyAccessGrants).where(eq(emergencyAccessGrants.id, grant.id));
    expect(row!.reason).toMatch(/^enc:/);
  });

  it('is a critical audit event, and one mail per administrator says only that it happened', async () => {
    const [entry] = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'EMERGENCY_ACCESS_GRANTED'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(isCriticalEvent(entry!.event)).toBe(true);
    expect(entry).toMatchObject({ level: 'WARNING', userId: providerId, retentionYears: 7 });
    expect(entry!.details).toMatchObject({ emergencyAccessId: grant.id, patientIds: [patientId], minutes: 15 });
    expect(JSON.stringify(entry!.details)).not.toContain('crisis');
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'emergency-access-used'));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    const everything = `${mail.subject}\n${mail.textBody}\n${mail.htmlBody}`;
    for (const secret of ['Glass', 'Breaker', 'crisis', 'Penicillin', '1971', patientId, grant.id, 'Provider']) {
      expect(everything).not.toContain(secret);
    }
    expect(mail.textBody).toContain('/admin/security?tab=emergency');
  });

  it('reads the chart, the notes other than psychotherapy notes, and the results, each audited with the grant', async () => {
    const chart = await provider.gql<{ patientChart: { id: string; allergies: string } }>(CHART, { id: patientId });
    expect(chart.data!.patientChart).toMatchObject({ id: patientId, allergies: 'Penicillin' });
    const notes = await provider.gql<{ listNotes: { items: { id: string; content: string }[] } }>(NOTES, {
      filter: { patientId },
    });
    expect(notes.data!.listNotes.items.map((n) => n.id)).toEqual([noteId]);
    const note = await provider.gql<{ getNote: { content: string } }>(GET_NOTE, { id: noteId });
    expect(note.data!.getNote.content).toBe('Call the sister first.');
    expect(errorOf(await provider.gql(GET_NOTE, { id: privateNoteId })).code).toBe('NOT_FOUND');
    const results = await provider.gql<{ questionnaireResults: { id: string; total: number }[] }>(RESULTS, {
      patientId,
    });
    expect(results.data!.questionnaireResults).toEqual([{ id: measureId, total: 8 }]);

    const reads = await db()
      .select({ event: auditEntries.event, details: auditEntries.details })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.userId, providerId),
          sql`${auditEntries.details} -> 'emergencyAccessIds' @> ${JSON.stringify([grant.id])}::jsonb`,
        ),
      );
    expect(reads.map((r) => r.event).sort()).toEqual([
      'MEDICAL_RECORD_ACCESS',
      'MEDICAL_RECORD_ACCESS',
      'PATIENT_CHART_VIEW',
      'QUESTIONNAIRE_VIEW',
    ]);
  });

  it('opens neither the patient list nor any change', async () => {
    const list = await provider.gql<{ listPatients: { items: { id: string }[] } }>(LIST_PATIENTS);
    expect(list.data!.listPatients.items.map((p) => p.id)).not.toContain(patientId);
    const update = await provider.gql(UPDATE_PATIENT, { input: { id: patientId, phone: '555-123-4567' } });
    expect(errorOf(update).code).toBe('NOT_FOUND');
    const addendum = await provider.gql(ADDENDUM, {
      input: { noteId, content: 'Seen in crisis', password: DEMO_PASSWORD },
    });
    expect(errorOf(addendum).code).toBe('NOT_FOUND');
  });

  it('the administrators see it awaiting review, with who, which patient, why and what was opened (audited)', async () => {
    expect((await admin.gql<{ emergencyAccessAwaitingReview: number }>(AWAITING)).data).toEqual({
      emergencyAccessAwaitingReview: 1,
    });
    const uses = await admin.gql<{ emergencyAccessUses: { items: Record<string, unknown>[] } }>(USES, {
      filter: 'awaiting',
    });
    expect(uses.data!.emergencyAccessUses.items).toEqual([
      {
        id: grant.id,
        providerName: expect.any(String) as string,
        patientName: 'Glass Breaker',
        reason: REASON,
        activityCount: 4,
        reviewOutcome: null,
        active: true,
      },
    ]);
    const use = await admin.gql<{ emergencyAccessUse: { activity: { event: string; operation: string }[] } }>(USE, {
      id: grant.id,
    });
    expect(use.data!.emergencyAccessUse.activity.map((a) => a.operation)).toEqual([
      'patientChart',
      'listNotes',
      'getNote',
      'questionnaireResults',
    ]);
    const [viewed] = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'EMERGENCY_ACCESS_VIEW'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(viewed!.details).toMatchObject({ emergencyAccessIds: [grant.id], patientIds: [patientId] });
    // Not for providers.
    expect(errorOf(await provider.gql(USES)).code).toBe('FORBIDDEN');
    expect(errorOf(await provider.gql(AWAITING)).code).toBe('FORBIDDEN');
  });

  it('ends at its time: the chart and notes close again', async () => {
    // Move the grant into the past, as if its 15 minutes had gone by.
    await db()
      .update(emergencyAccessGrants)
      .set({ startedAt: sql`now() - interval '20 minutes'`, endsAt: sql`now() - interval '5 minutes'` })
      .where(eq(emergencyAccessGrants.id, grant.id));
    expect(errorOf(await provider.gql(CHART, { id: patientId })).code).toBe('NOT_FOUND');
    expect(errorOf(await provider.gql(GET_NOTE, { id: noteId })).code).toBe('NOT_FOUND');
    expect(errorOf(await provider.gql(RESULTS, { patientId })).code).toBe('NOT_FOUND');
    const mine = await provider.gql<{ myEmergencyAccess: unknown }>(MINE, { patientId });
    expect(mine.data!.myEmergencyAccess).toBeNull();
  });

  it('a provider may end a grant early', async () => {
    const second = (await breakGlass(provider, { patientId, reason: REASON })).data!.requestEmergencyAccess;
    expect(second.id).not.toBe(grant.id);
    expect((await provider.gql(CHART, { id: patientId })).errors).toBeUndefined();
    expect((await provider.gql<{ endEmergencyAccess: boolean }>(END, { id: second.id })).data).toEqual({
      endEmergencyAccess: true,
    });
    expect(errorOf(await provider.gql(CHART, { id: patientId })).code).toBe('NOT_FOUND');
    expect(errorOf(await owner.gql(END, { id: second.id })).code).toBe('NOT_FOUND');
  });

  it('only an administrator reviews, once; an inappropriate use needs a note', async () => {
    const forbidden = await provider.gql(REVIEW, { input: { id: grant.id, outcome: 'appropriate' } });
    expect(errorOf(forbidden).code).toBe('FORBIDDEN');
    const patientTry = await patient.gql(REVIEW, { input: { id: grant.id, outcome: 'appropriate' } });
    expect(errorOf(patientTry).code).toBe('FORBIDDEN');
    const noNote = await admin.gql(REVIEW, { input: { id: grant.id, outcome: 'inappropriate' } });
    expect(errorOf(noNote).code).toBe('BAD_USER_INPUT');
    expect(noNote.errors?.[0]?.message).toContain(EMERGENCY_ACCESS_MESSAGES.noteRequired);
    const reviewed = await admin.gql<{ reviewEmergencyAccess: Record<string, unknown> }>(REVIEW, {
      input: { id: grant.id, outcome: 'appropriate', note: 'Confirmed with the on-call log.' },
    });
    expect(reviewed.data!.reviewEmergencyAccess).toMatchObject({
      id: grant.id,
      reviewOutcome: 'appropriate',
      reviewNote: 'Confirmed with the on-call log.',
      reviewedByName: expect.any(String) as string,
    });
    const twice = await admin.gql(REVIEW, { input: { id: grant.id, outcome: 'inappropriate', note: 'No.' } });
    expect(errorOf(twice)).toEqual({
      code: 'BAD_USER_INPUT',
      message: messageText('emergencyAccessMessages.alreadyReviewed'),
    });
    const [entry] = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'EMERGENCY_ACCESS_REVIEWED'))
      .orderBy(desc(auditEntries.id));
    expect(isCriticalEvent('EMERGENCY_ACCESS_REVIEWED')).toBe(true);
    expect(entry!.details).toMatchObject({ emergencyAccessId: grant.id, outcome: 'appropriate' });
    const [row] = await db().select().from(emergencyAccessGrants).where(eq(emergencyAccessGrants.id, grant.id));
    expect(row!.reviewNote).toMatch(/^enc:/);
    // The one ended early still waits.
    expect((await admin.gql<{ emergencyAccessAwaitingReview: number }>(AWAITING)).data).toEqual({
      emergencyAccessAwaitingReview: 1,
    });
  });
});
