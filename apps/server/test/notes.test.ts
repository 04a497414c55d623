/**
 * Clinical notes (decision 027) against the real server: the specification's rules and fallbacks, paging and
 * filters on the server, search over encrypted text, who reads what (author, the patient's provider, another
 * provider, administrator, patient), psychotherapy notes, signing with the password re-entered, the lock held
 * by GraphQL and by SQL, addenda, unlock with a reason and the versions, and encryption in the database.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_NOTE_TEMPLATES, DEMO_PASSWORD, messageText, NOTE_MESSAGES } from '@telehealth/shared';
import { findOwnSealedEntries } from '../src/audit/sealed-details.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { users } from '../src/auth/auth.table.ts';
import { notes, noteTemplates } from '../src/notes/notes.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';

const NOTE_FIELDS = `id title content tags category priority isPrivate patientId patientName appointmentId
  authorName isAuthor status version signedAt signedByName addenda { content authorName noteVersion signedAt }`;
const CREATE = `mutation ($input: CreateNoteInput!) { createNote(input: $input) { ${NOTE_FIELDS} } }`;
const UPDATE = `mutation ($input: UpdateNoteInput!) { updateNote(input: $input) { ${NOTE_FIELDS} } }`;
const GET = `query ($id: ID!) { getNote(id: $id) { ${NOTE_FIELDS} } }`;
const LIST = `query ($limit: Int, $nextToken: String, $filter: NoteFilterInput) {
  listNotes(limit: $limit, nextToken: $nextToken, filter: $filter) { items { id title content tags isPrivate status } nextToken } }`;
const STATS = '{ noteStats { total medical highPriority private } }';
const DELETE = 'mutation ($id: ID!) { deleteNote(id: $id) { id } }';
const SIGN = `mutation ($input: SignNoteInput!) { signNote(input: $input) { ${NOTE_FIELDS} } }`;
const UNLOCK = `mutation ($input: UnlockNoteInput!) { unlockNote(input: $input) { ${NOTE_FIELDS} } }`;
const ADDENDUM = `mutation ($input: AddNoteAddendumInput!) { addNoteAddendum(input: $input) { ${NOTE_FIELDS} } }`;
const HISTORY = `query ($id: ID!) { noteHistory(id: $id) { versions { version title content signedByName }
  unlocks { version reason unlockedByName } } }`;
const TEMPLATES = '{ noteTemplates { id key name body category isActive } }';
const SAVE_TEMPLATE = 'mutation ($input: NoteTemplateInput!) { saveNoteTemplate(input: $input) { id name body } }';

interface NoteResult {
  id: string;
  title: string;
  content: string | null;
  tags: string[] | null;
  category: string;
  priority: string;
  isPrivate: boolean;
  status: string;
  version: number;
  signedByName: string | null;
  isAuthor: boolean;
  addenda: { content: string; authorName: string; noteVersion: number }[] | null;
}

let t: TestApp;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let admin: TestClient;
let patientId: string;
let otherPatientId: string;

async function createNote(client: TestClient, input: Record<string, unknown>) {
  const response = await client.gql<{ createNote: NoteResult }>(CREATE, { input });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createNote;
}

/** A statement PostgreSQL refused, with the refusal's text (Drizzle wraps it in `cause`). */
async function expectRefused(statement: PromiseLike<unknown>, message: RegExp) {
  const error = await Promise.resolve(statement).then(
    () => null,
    (e: unknown) => e as Error & { cause?: Error },
  );
  expect(error, 'the statement was not refused').not.toBeNull();
  expect(error!.cause?.message ?? error!.message).toMatch(message);
}

function errorOf(response: GraphQLResponse) {
  return { code: response.errors?.[0]?.extensions?.code, message: response.errors?.[0]?.message };
}

beforeAll(async () => {
  t = await createTestApp();
  ({ provider, provider2, patient, admin } = await demoClients(t));
  ({ id: patientId } = await createPatient(provider, {
    firstName: 'Ana',
    lastName: 'Notes',
    email: 'ana.notes@example.net',
    dateOfBirth: '1985-02-03',
  }));
  ({ id: otherPatientId } = await createPatient(provider2, {
    firstName: 'Ben',
    lastName: 'Other',
    email: 'ben.other@example.net',
    dateOfBirth: '1979-09-09',
  }));
});

describe('the specification’s notes', () => {
  it('creates with trimmed title and content, category general and priority medium, tags trimmed and unique', async () => {
    const note = await createNote(provider, {
      title: '  Intake summary ',
      content: '\n First paragraph.\n\n- item one\n- item two \n',
      tags: [' anxiety', 'sleep', 'Anxiety ', ''],
      patientId,
    });
    expect(note).toMatchObject({
      title: 'Intake summary',
      content: 'First paragraph.\n\n- item one\n- item two',
      category: 'general',
      priority: 'medium',
      tags: ['anxiety', 'sleep'],
      status: 'draft',
      isAuthor: true,
      version: 1,
    });
  });

  it("refuses a note without title or content with 'Title and content are required', and writes nothing", async () => {
    const before = await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(notes);
    for (const input of [{ title: ' ', content: 'x' }, { title: 'x', content: '  \n ' }, {}]) {
      const response = await provider.gql(CREATE, { input });
      expect(errorOf(response).code).toBe('BAD_USER_INPUT');
      expect(response.errors?.[0]?.message).toContain(NOTE_MESSAGES.titleAndContentRequired);
    }
    const after = await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(notes);
    expect(after).toEqual(before);
  });

  it('keeps markup characters as typed (stored as text, never run)', async () => {
    const note = await createNote(provider, { title: 'Plan', content: 'dose <5 mg> & "review" <script>x</script>' });
    expect(note.content).toBe('dose <5 mg> & "review" <script>x</script>');
  });

  it('refuses a patient who is not the caller’s, and an appointment of another patient', async () => {
    const response = await provider.gql(CREATE, { input: { title: 'x', content: 'y', patientId: otherPatientId } });
    expect(errorOf(response).message).toContain(messageText('noteMessages.patientNotYours'));
  });

  it('pages on the server, filters by category and priority, and searches encrypted text by words', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const note = await createNote(provider2, {
        title: `Paging ${i}`,
        content: i === 3 ? 'Sertraline titration discussed' : 'Routine check',
        category: i % 2 === 0 ? 'medical' : 'research',
        priority: i === 4 ? 'urgent' : 'low',
      });
      made.push(note.id);
    }
    const first = await provider2.gql<{ listNotes: { items: NoteResult[]; nextToken: string | null } }>(LIST, {
      limit: 2,
    });
    expect(first.data!.listNotes.items.map((n) => n.id)).toEqual([made[4], made[3]]);
    const second = await provider2.gql<{ listNotes: { items: NoteResult[]; nextToken: string | null } }>(LIST, {
      limit: 2,
      nextToken: first.data!.listNotes.nextToken,
    });
    expect(second.data!.listNotes.items.map((n) => n.id)).toEqual([made[2], made[1]]);

    const medical = await provider2.gql<{ listNotes: { items: NoteResult[] } }>(LIST, {
      filter: { category: 'medical', priority: 'urgent' },
    });
    expect(medical.data!.listNotes.items.map((n) => n.id)).toEqual([made[4]]);

    for (const search of ['sertraline', 'SERTRA', 'titration sertraline', 'sértraline']) {
      const found = await provider2.gql<{ listNotes: { items: NoteResult[] } }>(LIST, { filter: { search } });
      expect(
        found.data!.listNotes.items.map((n) => n.id),
        search,
      ).toEqual([made[3]]);
    }
    const none = await provider2.gql<{ listNotes: { items: NoteResult[] } }>(LIST, { filter: { search: 'lithium' } });
    expect(none.data!.listNotes.items).toEqual([]);
  });

  it('counts the stats: total, medical, high priority (high or urgent), private', async () => {
    const client = new TestClient(t.app);
    await client.signIn('provider2@demo.test', DEMO_PASSWORD);
    const before = (await client.gql<{ noteStats: Record<string, number> }>(STATS)).data!.noteStats;
    await createNote(client, { title: 'a', content: 'b', category: 'medical', priority: 'high' });
    await createNote(client, {
      title: 'a',
      content: 'b',
      priority: 'urgent',
      isPrivate: true,
      patientId: otherPatientId,
    });
    const after = (await client.gql<{ noteStats: Record<string, number> }>(STATS)).data!.noteStats;
    expect(after).toEqual({
      total: before.total! + 2,
      medical: before.medical! + 1,
      highPriority: before.highPriority! + 2,
      private: before.private! + 1,
    });
  });

  it('deletes a draft (then it is gone), audited', async () => {
    const note = await createNote(provider, { title: 'Scratch', content: 'to delete' });
    expect((await provider.gql(DELETE, { id: note.id })).data).toEqual({ deleteNote: { id: note.id } });
    expect(errorOf(await provider.gql(GET, { id: note.id })).code).toBe('NOT_FOUND');
    const [entry] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'NOTE_DELETE'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(entry?.details).toMatchObject({ noteId: note.id });
  });
});

describe('who reads a note', () => {
  let shared: NoteResult;
  let therapy: NoteResult;
  let foreign: NoteResult;

  beforeAll(async () => {
    shared = await createNote(provider, { title: 'Med check', content: 'BP fine', patientId, category: 'medical' });
    therapy = await createNote(provider, {
      title: 'Session process notes',
      content: 'Transference themes',
      patientId,
      isPrivate: true,
    });
    // provider2 writes about provider's patient? Not allowed; provider2 writes about its own patient.
    foreign = await createNote(provider2, { title: 'Other’s note', content: 'secret', patientId: otherPatientId });
  });

  it('the author reads their note and their psychotherapy note; each read is audited', async () => {
    expect((await provider.gql<{ getNote: NoteResult }>(GET, { id: shared.id })).data!.getNote.content).toBe('BP fine');
    expect((await provider.gql<{ getNote: NoteResult }>(GET, { id: therapy.id })).data!.getNote.content).toBe(
      'Transference themes',
    );
    const events = await t.runtime.database.db
      .select({ event: auditEntries.event, details: auditEntries.details })
      .from(auditEntries)
      .where(sql`${auditEntries.details}->>'noteId' IN (${shared.id}, ${therapy.id})`);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['MEDICAL_RECORD_ACCESS']));
    // The psychotherapy note's read is recorded too, what it names sealed for its author (decision 027, issue 24).
    const authorId = (await provider.me())!.userId;
    const sealedReads = await findOwnSealedEntries(
      t.runtime.database.db,
      t.runtime.keyring,
      authorId,
      (d) => d.noteId === therapy.id && d.action === 'read',
    );
    expect(sealedReads.map((e) => e.event)).toContain('PSYCHOTHERAPY_NOTE_ACCESS');
  });

  it("the patient's provider reads the patient's notes but never another's psychotherapy note", async () => {
    // Hand the patient to provider2: now provider2 is their primary provider.
    await t.runtime.database.db
      .update(patients)
      .set({ ownerId: (await provider2.me())!.userId })
      .where(eq(patients.id, patientId));
    try {
      const read = await provider2.gql<{ getNote: NoteResult }>(GET, { id: shared.id });
      expect(read.data!.getNote).toMatchObject({ content: 'BP fine', isAuthor: false });
      expect(errorOf(await provider2.gql(GET, { id: therapy.id })).code).toBe('NOT_FOUND');
      const list = await provider2.gql<{ listNotes: { items: NoteResult[] } }>(LIST, {
        limit: 100,
        filter: { patientId },
      });
      expect(list.data!.listNotes.items.map((n) => n.id)).toContain(shared.id);
      expect(list.data!.listNotes.items.map((n) => n.id)).not.toContain(therapy.id);
      // Not the author: cannot change it.
      const update = await provider2.gql(UPDATE, { input: { id: shared.id, title: 'x', content: 'y', patientId } });
      expect(errorOf(update)).toMatchObject({ code: 'FORBIDDEN', message: NOTE_MESSAGES.authorOnly });
    } finally {
      await t.runtime.database.db
        .update(patients)
        .set({ ownerId: (await provider.me())!.userId })
        .where(eq(patients.id, patientId));
    }
  });

  it('another provider reads neither, answered like a missing note and recorded', async () => {
    for (const id of [shared.id, therapy.id]) {
      expect(errorOf(await provider2.gql(GET, { id })).code).toBe('NOT_FOUND');
    }
    expect(errorOf(await provider.gql(GET, { id: foreign.id })).code).toBe('NOT_FOUND');
    const [denial] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->'noteIds' ? ${foreign.id}`),
      );
    expect(denial).toBeDefined();
  });

  it('an administrator sees that a note exists, not its content, and never a psychotherapy note', async () => {
    const read = await admin.gql<{ getNote: NoteResult }>(GET, { id: shared.id });
    expect(read.data!.getNote).toMatchObject({ title: 'Med check', content: null, tags: null, addenda: [] });
    expect(errorOf(await admin.gql(GET, { id: therapy.id })).code).toBe('NOT_FOUND');
    const list = await admin.gql<{ listNotes: { items: NoteResult[] } }>(LIST, { limit: 100 });
    const ids = list.data!.listNotes.items.map((n) => n.id);
    expect(ids).toContain(shared.id);
    expect(ids).not.toContain(therapy.id);
    expect(list.data!.listNotes.items.every((n) => n.content === null)).toBe(true);
    expect(errorOf(await admin.gql(CREATE, { input: { title: 'a', content: 'b' } })).code).toBe('FORBIDDEN');
    expect(errorOf(await admin.gql(HISTORY, { id: shared.id })).code).toBe('FORBIDDEN');
  });

  it('a patient reads no notes at all', async () => {
    expect(errorOf(await patient.gql(LIST)).code).toBe('FORBIDDEN');
    expect(errorOf(await patient.gql(GET, { id: shared.id })).code).toBe('FORBIDDEN');
  });

  it('lists show a psychotherapy note to its author without its content (read it on its own)', async () => {
    const list = await provider.gql<{ listNotes: { items: NoteResult[] } }>(LIST, { limit: 100 });
    const row = list.data!.listNotes.items.find((n) => n.id === therapy.id);
    expect(row).toMatchObject({ isPrivate: true, content: null });
  });

  it('stores title, content and tags encrypted, and refuses a tampered value', async () => {
    const [row] = await t.runtime.database.db.select().from(notes).where(eq(notes.id, shared.id));
    for (const value of [row!.title, row!.content, row!.tags]) expect(value.startsWith('enc:')).toBe(true);
    expect(JSON.stringify(row)).not.toContain('BP fine');
    // Another row's ciphertext moved here does not decrypt (each value is bound to its row).
    const [other] = await t.runtime.database.db.select().from(notes).where(eq(notes.id, foreign.id));
    await t.runtime.database.db.update(notes).set({ content: other!.content }).where(eq(notes.id, shared.id));
    try {
      const read = await provider.gql(GET, { id: shared.id });
      expect(read.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    } finally {
      await t.runtime.database.db.update(notes).set({ content: row!.content }).where(eq(notes.id, shared.id));
    }
  });
});

describe('sign, lock, addenda, unlock', () => {
  it('signs with the password re-entered; a wrong one signs nothing and is recorded', async () => {
    const note = await createNote(provider, { title: 'Eval', content: 'Initial', patientId });
    const wrong = await provider.gql(SIGN, { input: { id: note.id, password: 'not-it' } });
    expect(errorOf(wrong)).toMatchObject({ code: 'BAD_USER_INPUT', message: NOTE_MESSAGES.identityNotConfirmed });
    const nothing = await provider.gql(SIGN, { input: { id: note.id } });
    expect(errorOf(nothing).message).toBe(NOTE_MESSAGES.confirmIdentity);
    const signed = await provider.gql<{ signNote: NoteResult }>(SIGN, {
      input: { id: note.id, password: DEMO_PASSWORD },
    });
    expect(signed.data!.signNote).toMatchObject({ status: 'signed', version: 1 });
    expect(signed.data!.signNote.signedByName).toBeTruthy();
    const events = await t.runtime.database.db
      .select({ event: auditEntries.event })
      .from(auditEntries)
      .where(
        sql`${auditEntries.event} IN ('NOTE_SIGN_FAILED', 'NOTE_SIGN') AND ${auditEntries.userId} = ${(await provider.me())!.userId}`,
      );
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['NOTE_SIGN_FAILED', 'NOTE_SIGN']));
  });

  it('refuses any change to a signed note: by GraphQL, and by SQL (the trigger)', async () => {
    const note = await createNote(provider, { title: 'Locked', content: 'Final', patientId });
    await provider.gql(SIGN, { input: { id: note.id, password: DEMO_PASSWORD } });
    const update = await provider.gql(UPDATE, { input: { id: note.id, title: 'Changed', content: 'x' } });
    expect(errorOf(update).message).toBe(NOTE_MESSAGES.signedLocked);
    expect(errorOf(await provider.gql(DELETE, { id: note.id })).message).toBe(NOTE_MESSAGES.signedLocked);
    const db = t.runtime.database.db;
    await expectRefused(db.update(notes).set({ priority: 'urgent' }).where(eq(notes.id, note.id)), /signed and locked/);
    await expectRefused(
      db.update(notes).set({ signedAt: null, signedBy: null }).where(eq(notes.id, note.id)),
      /signed and locked/,
    );
    await expectRefused(db.delete(notes).where(eq(notes.id, note.id)), /cannot be deleted/);
    await expectRefused(
      db.execute(sql`UPDATE note_versions SET category = 'research' WHERE note_id = ${note.id}`),
      /written once/,
    );
    await expectRefused(db.execute(sql`DELETE FROM note_versions WHERE note_id = ${note.id}`), /written once/);
  });

  it('takes signed, dated addenda under the note; a draft takes none', async () => {
    const draft = await createNote(provider, { title: 'Draft', content: 'd' });
    const refused = await provider.gql(ADDENDUM, {
      input: { noteId: draft.id, content: 'x', password: DEMO_PASSWORD },
    });
    expect(errorOf(refused).message).toBe(NOTE_MESSAGES.notSigned);

    const note = await createNote(provider, { title: 'Visit', content: 'Seen today', patientId });
    await provider.gql(SIGN, { input: { id: note.id, password: DEMO_PASSWORD } });
    const added = await provider.gql<{ addNoteAddendum: NoteResult }>(ADDENDUM, {
      input: { noteId: note.id, content: 'Lab results arrived: normal.', password: DEMO_PASSWORD },
    });
    expect(added.errors).toBeUndefined();
    expect(added.data!.addNoteAddendum.addenda).toEqual([
      expect.objectContaining({ content: 'Lab results arrived: normal.', noteVersion: 1 }),
    ]);
    expect(added.data!.addNoteAddendum.status).toBe('signed');
  });

  it('unlocks with a written reason (audited), re-signs as version 2, and keeps version 1 readable', async () => {
    const note = await createNote(provider, { title: 'Plan v1', content: 'Start 25 mg', patientId });
    await provider.gql(SIGN, { input: { id: note.id, password: DEMO_PASSWORD } });
    const noReason = await provider.gql(UNLOCK, { input: { id: note.id, reason: '  ' } });
    expect(errorOf(noReason).message).toContain(NOTE_MESSAGES.reasonRequired);
    const other = await provider2.gql(UNLOCK, { input: { id: note.id, reason: 'mine now' } });
    expect(errorOf(other).code).toBe('NOT_FOUND');

    const unlocked = await provider.gql<{ unlockNote: NoteResult }>(UNLOCK, {
      input: { id: note.id, reason: 'Dose typed wrong' },
    });
    expect(unlocked.data!.unlockNote).toMatchObject({ status: 'draft', version: 2 });
    await provider.gql(UPDATE, { input: { id: note.id, title: 'Plan v2', content: 'Start 50 mg', patientId } });
    await provider.gql(SIGN, { input: { id: note.id, password: DEMO_PASSWORD } });

    const history = await provider.gql<{
      noteHistory: { versions: { version: number; content: string }[]; unlocks: { reason: string }[] };
    }>(HISTORY, { id: note.id });
    expect(history.data!.noteHistory.versions.map((v) => [v.version, v.content])).toEqual([
      [1, 'Start 25 mg'],
      [2, 'Start 50 mg'],
    ]);
    expect(history.data!.noteHistory.unlocks.map((u) => u.reason)).toEqual(['Dose typed wrong']);
    const [entry] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'NOTE_UNLOCK'), sql`${auditEntries.details}->>'noteId' = ${note.id}`));
    expect(entry?.level).toBe('WARNING');
    expect(JSON.stringify(entry?.details)).not.toContain('Dose typed wrong');
  });
});

describe('templates', () => {
  it('offers the built-in templates; an administrator adds one, a provider cannot', async () => {
    const list = await provider.gql<{ noteTemplates: { key: string | null; body: string }[] }>(TEMPLATES);
    const keys = list.data!.noteTemplates.map((x) => x.key);
    expect(keys).toEqual(
      expect.arrayContaining(['soap', 'psychiatricEvaluation', 'riskAssessment', 'dap', 'medicationManagement']),
    );
    const evaluation = list.data!.noteTemplates.find((x) => x.key === 'psychiatricEvaluation')!;
    expect(evaluation.body).toContain('## Mental status exam');
    expect(evaluation.body).toContain('## Risk assessment');

    const denied = await provider.gql(SAVE_TEMPLATE, { input: { name: 'Mine', body: '## A' } });
    expect(errorOf(denied).code).toBe('FORBIDDEN');
    const saved = await admin.gql<{ saveNoteTemplate: { id: string } }>(SAVE_TEMPLATE, {
      input: { name: 'Group therapy', body: '## Group\n\n## Themes' },
    });
    const again = await provider.gql<{ noteTemplates: { id: string }[] }>(TEMPLATES);
    expect(again.data!.noteTemplates.map((x) => x.id)).toContain(saved.data!.saveNoteTemplate.id);
  });

  it('brings the built-in templates no administrator changed to this version at start, and keeps the changed', async () => {
    const db = t.runtime.database.db;
    const set = (key: string, values: { body: string; updatedBy?: string | null }) =>
      db.update(noteTemplates).set(values).where(eq(noteTemplates.key, key));
    const [adminUser] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
    // As an older version seeded them: the evaluation with headings only, the SOAP note edited by an administrator.
    await set('psychiatricEvaluation', { body: '## Mental status exam\n- Appearance:\n', updatedBy: null });
    await set('soap', { body: '## Our own SOAP', updatedBy: adminUser!.id });
    await db.delete(noteTemplates).where(eq(noteTemplates.key, 'riskAssessment'));

    await t.runtime.notes.seedTemplates();

    const rows = await db.select().from(noteTemplates);
    const byKey = (key: string) => rows.find((x) => x.key === key);
    for (const key of ['psychiatricEvaluation', 'riskAssessment'] as const) {
      expect(byKey(key)?.body).toBe(BUILT_IN_NOTE_TEMPLATES.find((x) => x.key === key)!.body);
    }
    expect(byKey('soap')?.body).toBe('## Our own SOAP');
  });
});
