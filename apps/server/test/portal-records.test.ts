/**
 * The patient portal's My Records, Who viewed my record and My account (issue 15, decision 031) against the real
 * server: a patient reads only their own record and the signed notes shared with them (never a psychotherapy
 * note, never an unshared one), asks for corrections the care team answers, sees who of the practice read their
 * record (never anything about another patient), and manages their own account.
 */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CORRECTION_RESPONSE_DAYS,
  DEMO_PASSWORD,
  LIVE_CLOSE_CODES,
  messageText,
  PORTAL_RECORD_MESSAGES,
  SIGN_IN_LOCKOUT,
} from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { users } from '../src/auth/auth.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { notes } from '../src/notes/notes.table.ts';
import { recordCorrections } from '../src/portal-records/portal-records.table.ts';
import { demoClients, signedInAccount } from './factories/accounts.ts';
import { createSignedNote } from './factories/notes.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';
import { liveUrl, openLiveOrFail } from './live-helpers.ts';

const GET_PATIENT = 'query ($id: ID!) { getPatient(id: $id) { id firstName } }';
const LIST_PATIENTS = '{ listPatients(limit: 100) { items { id } } }';
const UPDATE_PATIENT = 'mutation ($input: UpdatePatientInput!) { updatePatient(input: $input) { id } }';
const MY_RECORD = '{ myPatientRecord { id firstName lastName email phone } }';
const GET_NOTE = 'query ($id: ID!) { getNote(id: $id) { id } }';
const ADDENDUM = 'mutation ($input: AddNoteAddendumInput!) { addNoteAddendum(input: $input) { id } }';
const SHARE = 'mutation ($noteId: ID!) { shareNote(noteId: $noteId) { noteId shareable sharedAt sharedByName } }';
const UNSHARE = 'mutation ($noteId: ID!) { unshareNote(noteId: $noteId) { sharedAt } }';
const SHARING = 'query ($noteId: ID!) { noteSharing(noteId: $noteId) { shareable sharedAt } }';
const SHARED_NOTES = '{ sharedNotes { items { id title content sharedAt } nextToken } }';
const SHARED_NOTE = `query ($id: ID!) { sharedNote(id: $id) { id title content signedByName addenda { content authorName } } }`;
const REQUEST = `mutation ($input: RecordCorrectionInput!) { requestRecordCorrection(input: $input) { id field request status } }`;
const MINE = '{ myRecordCorrections { id field request status response answeredByName } }';
const CORRECTIONS = 'query ($patientId: ID!) { recordCorrections(patientId: $patientId) { id request status } }';
const ANSWER = `mutation ($input: AnswerRecordCorrectionInput!) { answerRecordCorrection(input: $input) { id status response answeredByName } }`;
const ACCESS_LOG = `query ($limit: Int, $nextToken: String) { recordAccessLog(limit: $limit, nextToken: $nextToken) {
  items { id timestamp kind actorName actorRole } nextToken } }`;
const MY_ACCOUNT =
  '{ myAccount { email firstName lastName role language languageChosen phone hasPatientRecord otherSessions } }';
const UPDATE_ACCOUNT = `mutation ($input: UpdateMyAccountInput!) { updateMyAccount(input: $input) { firstName lastName language phone } }`;
const CHANGE_PASSWORD = 'mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { sessionsEnded } }';
const SIGN_OUT_ELSEWHERE = 'mutation { signOutEverywhereElse { sessionsEnded } }';

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let providerId: string;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
});

function data<T>(response: GraphQLResponse<T>): T {
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data;
}

async function lastAuditId(): Promise<number> {
  const [row] = await t.runtime.database.db
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row?.id ?? 0;
}

async function entriesSince(since: number, event: string) {
  return t.runtime.database.db
    .select()
    .from(auditEntries)
    .where(and(gt(auditEntries.id, since), eq(auditEntries.event, event)))
    .orderBy(auditEntries.id);
}

/** A patient of the demo provider with a portal account of their own, signed in; `firstName` tells them apart. */
const portalPatient = (firstName: string) =>
  createPortalPatient(t, provider, { record: { firstName, dateOfBirth: '1988-03-04', phone: '555-201-0000' } });

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, providerId } = await demoClients(t));
});

describe('my record', () => {
  it('a patient reads their own record (audited), and no other', async () => {
    const me = await portalPatient('Reader');
    const other = await portalPatient('Other');
    const since = await lastAuditId();
    const mine = data(await me.client.gql<{ myPatientRecord: { id: string; phone: string } }>(MY_RECORD));
    expect(mine.myPatientRecord).toMatchObject({ id: me.patientId, phone: '555-201-0000' });
    const views = await entriesSince(since, 'PATIENT_VIEW');
    expect(views.map((v) => [v.userId, v.details])).toEqual([[me.userId, { patientIds: [me.patientId] }]]);

    expect(
      data(await me.client.gql<{ getPatient: { id: string } }>(GET_PATIENT, { id: me.patientId })).getPatient.id,
    ).toBe(me.patientId);
    const list = data(await me.client.gql<{ listPatients: { items: { id: string }[] } }>(LIST_PATIENTS));
    expect(list.listPatients.items.map((p) => p.id)).toEqual([me.patientId]);
    expect(errorOf(await me.client.gql(GET_PATIENT, { id: other.patientId }))).toMatchObject({ code: 'NOT_FOUND' });
    // Read only: the record itself is changed by the practice.
    expect(errorOf(await me.client.gql(UPDATE_PATIENT, { input: { id: me.patientId, city: 'Salem' } }))).toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});

describe('shared notes', () => {
  it('a provider shares a signed note; the patient reads it and its addenda, every reading audited', async () => {
    const me = await portalPatient('Shared');
    const noteId = await createSignedNote(provider, me.patientId);
    data(await provider.gql(ADDENDUM, { input: { noteId, content: 'Called: doing well.', password: DEMO_PASSWORD } }));
    expect(data(await me.client.gql<{ sharedNotes: { items: unknown[] } }>(SHARED_NOTES)).sharedNotes.items).toEqual(
      [],
    );

    const since = await lastAuditId();
    const shared = data(
      await provider.gql<{ shareNote: { sharedAt: string; sharedByName: string } }>(SHARE, { noteId }),
    );
    expect(shared.shareNote.sharedAt).not.toBeNull();
    expect((await entriesSince(since, 'NOTE_SHARE')).map((e) => e.details)).toEqual([
      { noteId, patientIds: [me.patientId] },
    ]);

    const list = data(
      await me.client.gql<{ sharedNotes: { items: { id: string; content: string | null }[] } }>(SHARED_NOTES),
    );
    expect(list.sharedNotes.items).toEqual([expect.objectContaining({ id: noteId, content: null })]);
    const read = await me.client.gql<{
      sharedNote: { content: string; signedByName: string; addenda: { content: string }[] };
    }>(SHARED_NOTE, { id: noteId });
    expect(data(read).sharedNote).toMatchObject({
      content: 'Sleep improved; continue the plan.',
      addenda: [{ content: 'Called: doing well.' }],
    });
    const reads = (await entriesSince(since, 'MEDICAL_RECORD_ACCESS')).filter((e) => e.userId === me.userId);
    expect(reads.map((e) => e.details)).toContainEqual(
      expect.objectContaining({ noteId, patientIds: [me.patientId], contentShown: true, shared: true }),
    );

    // Stopping sharing takes it away at once, and is audited.
    data(await provider.gql(UNSHARE, { noteId }));
    expect(errorOf(await me.client.gql(SHARED_NOTE, { id: noteId }))).toMatchObject({
      code: 'NOT_FOUND',
      message: PORTAL_RECORD_MESSAGES.sharedNoteNotFound,
    });
    expect(await entriesSince(since, 'NOTE_UNSHARE')).toHaveLength(1);
  });

  it('refuses a psychotherapy note and a draft on the server; an unshared or another patient’s note is not found', async () => {
    const me = await portalPatient('Rules');
    const other = await portalPatient('Neighbour');
    const privateId = await createSignedNote(provider, me.patientId, { isPrivate: true });
    expect(errorOf(await provider.gql(SHARE, { noteId: privateId }))).toEqual({
      code: 'BAD_USER_INPUT',
      message: PORTAL_RECORD_MESSAGES.psychotherapyNeverShared,
    });
    const draftId = await createSignedNote(provider, me.patientId, { sign: false });
    expect(errorOf(await provider.gql(SHARE, { noteId: draftId }))).toEqual({
      code: 'BAD_USER_INPUT',
      message: PORTAL_RECORD_MESSAGES.shareSignedOnly,
    });
    // Even written straight to the table, the database refuses to share a psychotherapy note.
    await expect(
      t.runtime.database.db.execute(
        sql`INSERT INTO note_shares (note_id, patient_id, shared_by) VALUES (${privateId}, ${me.patientId}, ${providerId})`,
      ),
    ).rejects.toThrow();

    // Another provider cannot share this provider's note: answered like a missing one, and recorded.
    const noteId = await createSignedNote(provider, me.patientId);
    const since = await lastAuditId();
    expect(errorOf(await provider2.gql(SHARE, { noteId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await entriesSince(since, 'UNAUTHORIZED_ACCESS')).toHaveLength(1);

    // Unshared: not found for the patient; shared with one patient: not found for another.
    expect(errorOf(await me.client.gql(SHARED_NOTE, { id: noteId }))).toMatchObject({ code: 'NOT_FOUND' });
    data(await provider.gql(SHARE, { noteId }));
    expect(errorOf(await other.client.gql(SHARED_NOTE, { id: noteId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(data(await me.client.gql<{ sharedNote: { id: string } }>(SHARED_NOTE, { id: noteId })).sharedNote.id).toBe(
      noteId,
    );
    // The patient never reads notes through the clinicians' operations.
    expect(errorOf(await me.client.gql(GET_NOTE, { id: noteId }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(data(await provider.gql<{ noteSharing: { shareable: boolean } }>(SHARING, { noteId: privateId }))).toEqual({
      noteSharing: { shareable: false, sharedAt: null },
    });
  });

  it('a shared note that becomes a psychotherapy note drops out of the patient’s reach', async () => {
    const me = await portalPatient('Drop');
    const noteId = await createSignedNote(provider, me.patientId);
    data(await provider.gql(SHARE, { noteId }));
    // The lock trigger refuses changes to a signed note, so the test marks it private under the re-encryption flag.
    await t.runtime.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('telehealth.reencrypt', 'on', true)`);
      await tx.execute(sql`ALTER TABLE notes DISABLE TRIGGER USER`);
      await tx.update(notes).set({ isPrivate: true }).where(eq(notes.id, noteId));
      await tx.execute(sql`ALTER TABLE notes ENABLE TRIGGER USER`);
    });
    expect(errorOf(await me.client.gql(SHARED_NOTE, { id: noteId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(data(await me.client.gql<{ sharedNotes: { items: unknown[] } }>(SHARED_NOTES)).sharedNotes.items).toEqual(
      [],
    );
  });
});

describe('correction requests', () => {
  it('reach the practice by e-mail without content, stored encrypted; the care team answers; the patient sees it', async () => {
    const me = await portalPatient('Correct');
    const request = 'My allergy to penicillin is missing.';
    const made = data(
      await me.client.gql<{ requestRecordCorrection: { id: string; status: string } }>(REQUEST, {
        input: { field: 'clinical', request },
      }),
    ).requestRecordCorrection;
    expect(made.status).toBe('pending');
    const [row] = await t.runtime.database.db.select().from(recordCorrections).where(eq(recordCorrections.id, made.id));
    expect(row!.request.startsWith('enc:')).toBe(true);
    const mails = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'record-correction-waiting'))
      .orderBy(desc(mailOutbox.createdAt));
    const [providerAccount] = await t.runtime.database.db.select().from(users).where(eq(users.id, providerId));
    const recipients = mails.map((m) => m.toAddress);
    expect(recipients).toContain(providerAccount!.email);
    expect(recipients).toContain('admin@demo.test');
    for (const mail of mails) {
      const body = `${mail.subject}\n${mail.textBody}\n${mail.htmlBody}`;
      expect(body).not.toContain('penicillin');
      expect(body).not.toContain(me.email);
      expect(body).not.toContain('Correct');
      expect(mail.textBody).toContain(`${CORRECTION_RESPONSE_DAYS} days`);
    }

    // Another provider does not see them; the primary provider does, and declines with a reason.
    expect(errorOf(await provider2.gql(CORRECTIONS, { patientId: me.patientId }))).toMatchObject({ code: 'NOT_FOUND' });
    const seen = data(
      await provider.gql<{ recordCorrections: { id: string; request: string }[] }>(CORRECTIONS, {
        patientId: me.patientId,
      }),
    );
    expect(seen.recordCorrections).toEqual([expect.objectContaining({ id: made.id, request })]);
    expect(errorOf(await provider.gql(ANSWER, { input: { id: made.id, decision: 'declined' } }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(errorOf(await provider2.gql(ANSWER, { input: { id: made.id, decision: 'accepted' } }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    const answered = data(
      await provider.gql<{ answerRecordCorrection: { status: string } }>(ANSWER, {
        input: { id: made.id, decision: 'declined', response: 'The allergy list was checked with you on the phone.' },
      }),
    );
    expect(answered.answerRecordCorrection.status).toBe('declined');
    expect(errorOf(await admin.gql(ANSWER, { input: { id: made.id, decision: 'accepted' } }))).toEqual({
      code: 'BAD_USER_INPUT',
      message: PORTAL_RECORD_MESSAGES.correctionAnswered,
    });
    const [providerAccount2] = await t.runtime.database.db.select().from(users).where(eq(users.id, providerId));
    const mine = data(await me.client.gql<{ myRecordCorrections: unknown[] }>(MINE)).myRecordCorrections;
    expect(mine).toEqual([
      expect.objectContaining({
        status: 'declined',
        response: 'The allergy list was checked with you on the phone.',
        answeredByName: providerAccount2!.name,
      }),
    ]);
    // A request says what it is about, and something.
    expect(errorOf(await me.client.gql(REQUEST, { input: { field: 'nothing', request: 'x' } }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(errorOf(await me.client.gql(REQUEST, { input: { field: 'other', request: '  ' } }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });
});

describe('who viewed my record', () => {
  it('shows who of the practice read or changed the record, newest first, never the patient or another record', async () => {
    const me = await portalPatient('Watched');
    const other = await portalPatient('Elsewhere');
    // The patient's own reads are not listed; the provider's are.
    data(await me.client.gql(MY_RECORD));
    data(await provider.gql(GET_PATIENT, { id: me.patientId }));
    data(await provider.gql(UPDATE_PATIENT, { input: { id: me.patientId, city: 'Salem' } }));
    data(await provider.gql(GET_PATIENT, { id: other.patientId }));
    data(await admin.gql(LIST_PATIENTS));

    const since = await lastAuditId();
    const page = data(
      await me.client.gql<{
        recordAccessLog: {
          items: { id: string; kind: string; actorName: string; actorRole: string }[];
          nextToken: string;
        };
      }>(ACCESS_LOG),
    ).recordAccessLog;
    const kinds = page.items.map((i) => [i.kind, i.actorRole]);
    // Newest first: the administrator's list page, the update, the view (and the creation before them).
    expect(kinds.slice(0, 3)).toEqual([
      ['listed', 'admin'],
      ['updated', 'provider'],
      ['viewed', 'provider'],
    ]);
    const [providerAccount] = await t.runtime.database.db.select().from(users).where(eq(users.id, providerId));
    expect(page.items[1]!.actorName).toBe(providerAccount!.name);
    expect(page.items.every((i) => i.actorRole !== 'patient')).toBe(true);
    // The entries are this patient's only: the read of the other record is not among them.
    const ids = page.items.map((i) => i.id);
    const [otherRead] = await t.runtime.database.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(
        sql`${auditEntries.details} -> 'patientIds' = ${JSON.stringify([other.patientId])}::jsonb AND ${auditEntries.event} = 'PATIENT_VIEW' AND ${auditEntries.userRole} = 'provider'`,
      );
    expect(ids).not.toContain(String(otherRead!.id));
    // The list entry says nothing of the others on that page.
    expect(JSON.stringify(page.items[0])).not.toContain(other.patientId);
    // Reading the log is audited.
    expect((await entriesSince(since, 'RECORD_ACCESS_LOG_VIEW')).map((e) => e.details)).toEqual([
      { patientIds: [me.patientId], page: 'first' },
    ]);
    // The other patient never sees this one's entries.
    const theirs = data(
      await other.client.gql<{ recordAccessLog: { items: { id: string }[] } }>(ACCESS_LOG),
    ).recordAccessLog.items.map((i) => i.id);
    expect(theirs.filter((id) => ids.includes(id) && page.items.find((i) => i.id === id)?.kind !== 'listed')).toEqual(
      [],
    );
  });

  it("lists only the server's own entries: a browser's report naming the patient never shows (issue 24)", async () => {
    const me = await portalPatient('Reported');
    // provider2 has no relation to this patient, yet any signed-in browser may report its own events.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/audit/logs',
      headers: { 'content-type': 'application/json', 'x-audit-batch': 'b1', cookie: provider2.cookie! },
      payload: {
        batchId: 'forged-batch',
        timestamp: new Date().toISOString(),
        logs: [{ event: 'PAGE_VIEW', details: { patientIds: [me.patientId] } }],
      },
    });
    expect(posted.statusCode).toBeLessThan(300);
    const [stored] = await t.runtime.database.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(
        sql`${auditEntries.source} = 'client' AND ${auditEntries.details} -> 'patientIds' @> ${JSON.stringify([me.patientId])}::jsonb`,
      );
    expect(stored).toBeDefined();
    const page = data(
      await me.client.gql<{ recordAccessLog: { items: { id: string; actorName: string }[] } }>(ACCESS_LOG),
    ).recordAccessLog;
    expect(page.items.map((i) => i.id)).not.toContain(String(stored!.id));
    const [other] = await t.runtime.database.db.select().from(users).where(eq(users.email, 'provider2@demo.test'));
    expect(page.items.map((i) => i.actorName)).not.toContain(other!.name);
  });

  it('pages with a signed cursor, without repeating or skipping an entry', async () => {
    const me = await portalPatient('Paged');
    for (let i = 0; i < 7; i++) data(await provider.gql(GET_PATIENT, { id: me.patientId }));
    const seen: string[] = [];
    let nextToken: string | null = null;
    do {
      const page: { recordAccessLog: { items: { id: string }[]; nextToken: string | null } } = data(
        await me.client.gql(ACCESS_LOG, { limit: 3, nextToken }),
      );
      expect(page.recordAccessLog.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.recordAccessLog.items.map((i) => i.id));
      nextToken = page.recordAccessLog.nextToken;
    } while (nextToken);
    // Seven views and the creation: newest first, each once.
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    expect([...seen].sort((a, b) => Number(b) - Number(a))).toEqual(seen);
    expect(errorOf(await me.client.gql(ACCESS_LOG, { nextToken: 'forged.token' }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('is served by the GIN index on details->patientIds', async () => {
    const plan = await t.runtime.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      return tx.execute<{ 'QUERY PLAN': string }>(
        sql`EXPLAIN SELECT id FROM audit_entries WHERE details -> 'patientIds' @> '["00000000-0000-0000-0000-000000000000"]'::jsonb`,
      );
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('audit_entries_patient_ids_idx');
  });
});

describe('my account', () => {
  it('a patient changes their phone and language but not their name; staff change their name; all audited', async () => {
    const me = await portalPatient('Account');
    const since = await lastAuditId();
    const updated = data(
      await me.client.gql<{ updateMyAccount: { language: string; phone: string } }>(UPDATE_ACCOUNT, {
        input: { language: 'es', phone: '555-303-1234' },
      }),
    );
    expect(updated.updateMyAccount).toMatchObject({ language: 'es', phone: '555-303-1234' });
    const account = data(
      await me.client.gql<{ myAccount: { language: string; hasPatientRecord: boolean } }>(MY_ACCOUNT),
    );
    expect(account.myAccount).toMatchObject({ language: 'es', languageChosen: true, hasPatientRecord: true });
    expect(errorOf(await me.client.gql(UPDATE_ACCOUNT, { input: { firstName: 'New', lastName: 'Name' } }))).toEqual({
      code: 'BAD_USER_INPUT',
      message: PORTAL_RECORD_MESSAGES.nameThroughPractice,
    });
    expect(errorOf(await me.client.gql(UPDATE_ACCOUNT, { input: { phone: '12' } }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    const changes = await entriesSince(since, 'ACCOUNT_UPDATE');
    expect(changes.map((c) => c.details)).toEqual([{ accountId: me.userId, fields: ['language', 'phone'] }]);

    const { client: staff } = await signedInAccount(t, 'admin', { firstName: 'Sam', lastName: 'Staff' });
    const renamed = data(
      await staff.gql<{ updateMyAccount: { firstName: string } }>(UPDATE_ACCOUNT, {
        input: { firstName: 'Samantha', lastName: 'Staff' },
      }),
    );
    expect(renamed.updateMyAccount.firstName).toBe('Samantha');
    expect((await staff.me())?.name).toBe('Samantha Staff');
  });

  it('changes the password with the current one; a wrong one counts toward the lockout; other sessions end', async () => {
    const me = await portalPatient('Password');
    const elsewhere = new TestClient(t.app);
    await elsewhere.signIn(me.email, me.password);
    const since = await lastAuditId();
    expect(
      errorOf(
        await me.client.gql(CHANGE_PASSWORD, {
          input: { currentPassword: 'Wrong-Pass-1!', newPassword: 'Newer-Pass-2026!' },
        }),
      ),
    ).toEqual({ code: 'BAD_USER_INPUT', message: PORTAL_RECORD_MESSAGES.wrongCurrentPassword });
    expect((await entriesSince(since, 'PASSWORD_CHANGE_FAILED')).map((e) => e.userId)).toEqual([me.userId]);
    expect(
      errorOf(await me.client.gql(CHANGE_PASSWORD, { input: { currentPassword: me.password, newPassword: 'short' } })),
    ).toMatchObject({ code: 'BAD_USER_INPUT' });

    const changed = data(
      await me.client.gql<{ changePassword: { sessionsEnded: number } }>(CHANGE_PASSWORD, {
        input: { currentPassword: me.password, newPassword: 'Newer-Pass-2026!' },
      }),
    );
    expect(changed.changePassword.sessionsEnded).toBe(1);
    expect(await me.client.me()).not.toBeNull();
    expect(await elsewhere.me()).toBeNull();
    expect((await new TestClient(t.app).signIn(me.email, me.password)).success).toBe(false);
    expect((await new TestClient(t.app).signIn(me.email, 'Newer-Pass-2026!')).success).toBe(true);
  });

  it('locks the account after repeated wrong current passwords', async () => {
    const me = await portalPatient('Lockout');
    let last: GraphQLResponse | undefined;
    for (let i = 0; i < SIGN_IN_LOCKOUT.maxAttempts; i++) {
      last = await me.client.gql(CHANGE_PASSWORD, {
        input: { currentPassword: `Wrong-Pass-${i}!`, newPassword: 'Newer-Pass-2026!' },
      });
    }
    // The attempt that reaches the limit locks the account: even the right password is refused until it ends.
    expect(errorOf(last!)).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: messageText('messages.accountLocked', { count: SIGN_IN_LOCKOUT.windowMs / 60_000 }),
    });
    expect(
      errorOf(
        await me.client.gql(CHANGE_PASSWORD, {
          input: { currentPassword: me.password, newPassword: 'Newer-Pass-2026!' },
        }),
      ),
    ).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect((await new TestClient(t.app).signIn(me.email, me.password)).success).toBe(false);
  });

  it('signs out everywhere else: the other sessions and their live channels end at once, this one stays', async () => {
    const me = await portalPatient('Everywhere');
    const phone = new TestClient(t.app);
    await phone.signIn(me.email, me.password);
    const url = await liveUrl(t.app);
    const socket = await openLiveOrFail(url, { cookie: phone.cookie, origin: t.runtime.config.publicUrl });
    const own = await openLiveOrFail(url, { cookie: me.client.cookie, origin: t.runtime.config.publicUrl });
    expect(
      data(await me.client.gql<{ myAccount: { otherSessions: number } }>(MY_ACCOUNT)).myAccount.otherSessions,
    ).toBe(1);

    const ended = data(await me.client.gql<{ signOutEverywhereElse: { sessionsEnded: number } }>(SIGN_OUT_ELSEWHERE));
    expect(ended.signOutEverywhereElse.sessionsEnded).toBe(1);
    expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.sessionEnded, reason: 'SIGNED_OUT_ELSEWHERE' });
    expect(await phone.me()).toBeNull();
    expect(await me.client.me()).not.toBeNull();
    expect(own.messages.filter((m) => m.type === 'bye')).toEqual([]);
    own.close();
    const [entry] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'SESSIONS_ENDED_ELSEWHERE'), eq(auditEntries.userId, me.userId)));
    expect(entry!.details).toEqual({ accountId: me.userId, sessionsEnded: 1 });
  });
});
