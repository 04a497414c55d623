/**
 * Retried writes (issue 24, point 12; decision 044): a create mutation sent again with the same Idempotency-Key
 * and input answers the first result without a second write; other input with the key is refused and writes
 * nothing; a key whose first request still runs is refused as in flight; keys belong to one account and last a day.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, DEMO_PASSWORD, ERROR_CODES, formatIdempotencyKey, todayIn } from '@telehealth/shared';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { idempotencyKeys } from '../src/idempotency/idempotency.table.ts';
import { measures } from '../src/measures/measures.table.ts';
import { conversations, messages } from '../src/messages/messages.table.ts';
import { notes } from '../src/notes/notes.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { deleteExpiredIdempotencyKeys } from '../src/idempotency/idempotency-keys.ts';
import { crontab } from '../src/modules/registry.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';

const CREATE_PATIENT = `mutation ($input: CreatePatientInput!) { createPatient(input: $input) {
  id firstName lastName email dateOfBirth owner } }`;
const CREATE_APPOINTMENT = `mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) {
  id patientId date time reason status } }`;
const CREATE_NOTE = `mutation ($input: CreateNoteInput!) { createNote(input: $input) { id title content } }`;
const START = `mutation ($input: StartConversationInput!) { startConversation(input: $input) {
  id subject messages { id body } } }`;
const SEND = 'mutation ($input: SendMessageInput!) { sendMessage(input: $input) { id body mine } }';
const SEND_QUESTIONNAIRE = `mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) {
  id instrument status } }`;
const SUBMIT = `mutation ($input: SubmitQuestionnaireInput!) { submitQuestionnaire(input: $input) {
  safetyAlert questionnaire { id status total band } } }`;

let t: TestApp;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let serial = 0;

const keyHeader = (key: string) => ({ 'idempotency-key': formatIdempotencyKey(key) });
const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;
const db = () => t.runtime.database.db;

/** Names refuse digits: a, b, ..., z, ba, ... */
const letters = (n: number): string => (n < 26 ? '' : letters(Math.floor(n / 26))) + String.fromCharCode(97 + (n % 26));

function patientInput(overrides: Record<string, unknown> = {}) {
  serial += 1;
  return {
    firstName: 'Iris',
    lastName: `Retry${letters(serial)}`,
    email: `iris.retry${serial}@example.net`,
    dateOfBirth: '1987-04-05',
    ...overrides,
  };
}

async function patientsWithEmail(email: string): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(patients)
    .where(eq(patients.email, email));
  return row!.n;
}

async function countOf(table: typeof appointments | typeof notes | typeof conversations | typeof messages) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(table);
  return row!.n;
}

function createPatient(client: TestClient, input: Record<string, unknown>, key?: string) {
  return client.gql<{ createPatient: { id: string; email: string } }>(
    CREATE_PATIENT,
    { input },
    key === undefined ? {} : keyHeader(key),
  );
}

let portalPatientId: string | undefined;

/** The patient of `provider` with the demo patient's portal account (one per account), for messages and questionnaires. */
async function portalPatient(): Promise<string> {
  if (portalPatientId) return portalPatientId;
  const created = await createPatient(provider, patientInput());
  const id = created.data!.createPatient.id;
  const patientUserId = (await patient.me())!.userId;
  await db().update(patients).set({ accountId: patientUserId }).where(eq(patients.id, id));
  portalPatientId = id;
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  [provider, provider2, patient] = [0, 1, 2].map(() => new TestClient(t.app)) as [TestClient, TestClient, TestClient];
  providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  await provider2.signIn('provider2@demo.test', DEMO_PASSWORD);
  await patient.signIn('patient@demo.test', DEMO_PASSWORD);
});

describe('createPatient with an Idempotency-Key', () => {
  it('answers the same key and input with the first patient, without a second one', async () => {
    const input = patientInput();
    const key = randomUUID();
    const first = await createPatient(provider, input, key);
    const again = await createPatient(provider, input, key);
    expect(first.errors).toBeUndefined();
    expect(again.errors).toBeUndefined();
    expect(again.data).toEqual(first.data);
    expect(await patientsWithEmail(input.email)).toBe(1);
    // The key is stored with the record's id and an HMAC of the input: no health data.
    const [stored] = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toMatchObject({ accountId: providerId, operation: 'createPatient' });
    expect(stored!.resultId).toBe(first.data!.createPatient.id);
    expect(JSON.stringify(stored)).not.toContain(input.lastName);
  });

  it('answers a retry after a reply that never arrived with the record the first request created', async () => {
    const input = patientInput();
    const key = randomUUID();
    // The first request commits; its answer is lost on the way (nothing of it is read).
    await createPatient(provider, input, key);
    const retried = await createPatient(provider, input, key);
    const [row] = await db().select({ id: patients.id }).from(patients).where(eq(patients.email, input.email));
    expect(retried.data?.createPatient.id).toBe(row!.id);
    expect(await patientsWithEmail(input.email)).toBe(1);
    // The answer was read again through the normal, audited path.
    const views = await db()
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.event, 'PATIENT_VIEW'),
          eq(auditEntries.url, 'createPatient'),
          sql`${auditEntries.details}->'patientIds' ? ${row!.id}`,
        ),
      );
    expect(views).toHaveLength(1);
  });

  it('refuses the same key with other input, and writes nothing', async () => {
    const key = randomUUID();
    const first = patientInput();
    expect((await createPatient(provider, first, key)).errors).toBeUndefined();
    const other = patientInput();
    const refused = await createPatient(provider, other, key);
    expect(codeOf(refused)).toBe(ERROR_CODES.idempotencyKeyReused);
    expect(refused.data).toBeNull();
    expect(await patientsWithEmail(other.email)).toBe(0);
    // Another operation with the key is other input too.
    const note = await provider.gql(CREATE_NOTE, { input: { title: 'Retry', content: 'Text' } }, keyHeader(key));
    expect(codeOf(note)).toBe(ERROR_CODES.idempotencyKeyReused);
  });

  it('writes once per key: two keys, two patients; no key, a patient each time', async () => {
    const input = patientInput();
    expect((await createPatient(provider, input, randomUUID())).errors).toBeUndefined();
    expect((await createPatient(provider, input, randomUUID())).errors).toBeUndefined();
    expect(await patientsWithEmail(input.email)).toBe(2);
    const plain = patientInput();
    await createPatient(provider, plain);
    await createPatient(provider, plain);
    expect(await patientsWithEmail(plain.email)).toBe(2);
  });

  it('keeps keys apart per account', async () => {
    const key = randomUUID();
    const input = patientInput();
    const mine = await createPatient(provider, input, key);
    const theirs = await createPatient(provider2, input, key);
    expect(theirs.errors).toBeUndefined();
    expect(theirs.data!.createPatient.id).not.toBe(mine.data!.createPatient.id);
    expect(await patientsWithEmail(input.email)).toBe(2);
  });

  it('writes once when the same submission arrives twice at the same time', async () => {
    const input = patientInput();
    const key = randomUUID();
    const answers = await Promise.all([0, 1, 2].map(() => createPatient(provider, input, key)));
    expect(await patientsWithEmail(input.email)).toBe(1);
    const [row] = await db().select({ id: patients.id }).from(patients).where(eq(patients.email, input.email));
    for (const answer of answers) {
      // Each one answers the patient, or says the first is still being saved (never a second patient).
      if (answer.data) expect(answer.data.createPatient.id).toBe(row!.id);
      else expect(codeOf(answer)).toBe(ERROR_CODES.idempotencyKeyInFlight);
    }
    const retried = await createPatient(provider, input, key);
    expect(retried.data!.createPatient.id).toBe(row!.id);
  });

  it('refuses a header that is not a key with 400 before anything runs', async () => {
    for (const value of ['', '""', `"${'k'.repeat(256)}"`, '"a\u0001b"', 'two words', '"unterminated']) {
      const input = patientInput();
      const response = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', cookie: provider.cookie!, 'idempotency-key': value },
        payload: { query: CREATE_PATIENT, variables: { input } },
      });
      expect(response.statusCode, JSON.stringify(value)).toBe(400);
      expect(response.json<{ errors: { extensions: { code: string } }[] }>().errors[0]!.extensions.code).toBe(
        ERROR_CODES.idempotencyKeyInvalid,
      );
      expect(await patientsWithEmail(input.email)).toBe(0);
    }
  });

  it('forgets a key after a day: the prune job deletes it and the key writes anew', async () => {
    const input = patientInput();
    const key = randomUUID();
    await createPatient(provider, input, key);
    await db()
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, key));
    // A key past its day no longer answers, even before the job removed it.
    expect((await createPatient(provider, input, key)).errors).toBeUndefined();
    expect(await patientsWithEmail(input.email)).toBe(2);
    await db()
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, key));
    expect(await deleteExpiredIdempotencyKeys(db())).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    expect(crontab).toMatch(/^\S+ \S+ \S+ \S+ \S+ idempotency-keys:prune /m);
  });
});

describe('the other create mutations with an Idempotency-Key', () => {
  it('createAppointment: one visit, the same answer', async () => {
    const patientId = (await createPatient(provider, patientInput())).data!.createPatient.id;
    let date = addDays(todayIn('America/New_York'), 15);
    while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 3) date = addDays(date, 1);
    const input = { patientId, date, time: '10:00', reason: 'Follow-up' };
    const key = randomUUID();
    const before = await countOf(appointments);
    const first = await provider.gql(CREATE_APPOINTMENT, { input }, keyHeader(key));
    const again = await provider.gql(CREATE_APPOINTMENT, { input }, keyHeader(key));
    expect(first.errors).toBeUndefined();
    // Without the key, the retry would be refused as PROVIDER_BUSY: with it, it answers the visit.
    expect(again).toMatchObject({ data: first.data });
    expect(await countOf(appointments)).toBe(before + 1);
  });

  it('createNote: one note, the same answer', async () => {
    const input = { title: 'Session summary', content: 'Discussed sleep.' };
    const key = randomUUID();
    const before = await countOf(notes);
    const first = await provider.gql(CREATE_NOTE, { input }, keyHeader(key));
    const again = await provider.gql(CREATE_NOTE, { input }, keyHeader(key));
    expect(first.errors).toBeUndefined();
    expect(again).toMatchObject({ data: first.data });
    expect(await countOf(notes)).toBe(before + 1);
  });

  it('startConversation and sendMessage: one conversation, one message each, the same answers', async () => {
    const patientId = await portalPatient();
    const start = { patientId, kind: 'clinical', subject: 'Dose question', body: 'Can we talk?' };
    const startKey = randomUUID();
    const conversationsBefore = await countOf(conversations);
    const started = await provider.gql<{ startConversation: { id: string } }>(
      START,
      { input: start },
      keyHeader(startKey),
    );
    const startedAgain = await provider.gql(START, { input: start }, keyHeader(startKey));
    expect(started.errors).toBeUndefined();
    expect(startedAgain).toMatchObject({ data: started.data });
    expect(await countOf(conversations)).toBe(conversationsBefore + 1);

    const send = { conversationId: started.data!.startConversation.id, body: 'One more thing.' };
    const sendKey = randomUUID();
    const messagesBefore = await countOf(messages);
    const sent = await patient.gql(SEND, { input: send }, keyHeader(sendKey));
    const sentAgain = await patient.gql(SEND, { input: send }, keyHeader(sendKey));
    expect(sent.errors).toBeUndefined();
    expect(sentAgain).toMatchObject({ data: sent.data });
    expect(await countOf(messages)).toBe(messagesBefore + 1);
  });

  it('sendQuestionnaire and submitQuestionnaire: one questionnaire, answered once, the same answers', async () => {
    const patientId = await portalPatient();
    const sendKey = randomUUID();
    const input = { patientId, instrument: 'gad7' };
    const sent = await provider.gql<{ sendQuestionnaire: { id: string } }>(
      SEND_QUESTIONNAIRE,
      { input },
      keyHeader(sendKey),
    );
    const sentAgain = await provider.gql(SEND_QUESTIONNAIRE, { input }, keyHeader(sendKey));
    expect(sent.errors).toBeUndefined();
    expect(sentAgain).toMatchObject({ data: sent.data });
    const ofPatient = await db().select({ id: measures.id }).from(measures).where(eq(measures.patientId, patientId));
    expect(ofPatient).toHaveLength(1);

    const submit = { id: sent.data!.sendQuestionnaire.id, answers: [1, 2, 1, 2, 1, 2, 1], difficulty: 1 };
    const submitKey = randomUUID();
    const answered = await patient.gql(SUBMIT, { input: submit }, keyHeader(submitKey));
    // Without the key a second submission is refused as already completed; with it, the first answer.
    const answeredAgain = await patient.gql(SUBMIT, { input: submit }, keyHeader(submitKey));
    expect(answered.errors).toBeUndefined();
    expect(answeredAgain).toMatchObject({ data: answered.data });
  });
});
