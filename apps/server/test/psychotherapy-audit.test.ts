/**
 * Psychotherapy notes in the audit trail (issue 24, decision 027): their entries exist and chain, but nothing an
 * administrator, an API token, a report or the patient's access log reads ties them to a patient or a note; only
 * the author's own read path opens what they name.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, DEMO_PASSWORD, todayIn } from '@telehealth/shared';
import { verifyAuditTrail } from '../src/audit/audit-chain.ts';
import { generateApiTokenSecret, insertApiToken } from '../src/audit-trail/api-tokens.repository.ts';
import { auditChain, auditEntries } from '../src/audit/audit.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, sleep, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';

const CREATE_NOTE = 'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }';
const UPDATE_NOTE = 'mutation ($input: UpdateNoteInput!) { updateNote(input: $input) { id } }';
const GET_NOTE = 'query ($id: ID!) { getNote(id: $id) { id content } }';
const LIST_NOTES = 'query ($filter: NoteFilterInput) { listNotes(limit: 50, filter: $filter) { items { id } } }';
const HISTORY = 'query ($id: ID!) { noteHistory(id: $id) { versions { version } } }';
const SIGN_NOTE = 'mutation ($input: SignNoteInput!) { signNote(input: $input) { id status } }';
const ADDENDUM = 'mutation ($input: AddNoteAddendumInput!) { addNoteAddendum(input: $input) { id } }';
const ACTIVITY = 'query ($id: ID!) { psychotherapyNoteActivity(id: $id) { at event action } }';
const SEARCH = `query ($filter: AuditSearchFilter, $after: String) {
  auditEntries(filter: $filter, first: 50, after: $after) { entries { id event userId details } nextCursor } }`;
const ENTRY = 'query ($id: ID!) { auditEntry(id: $id) { id event details } }';
const REPORT = `mutation ($input: ReportPeriodInput!) { generateComplianceReport(input: $input) {
  totalEvents eventBreakdown { event count }
  riskIndicators { type count people { userId name email role event count firstAt lastAt } } } }`;
const ACCESS_LOG = '{ recordAccessLog(limit: 100) { items { id kind actorRole } } }';

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let patient: TestClient;
let providerId: string;
let patientId: string;
let therapyId: string;
let ordinaryId: string;

function data<T>(response: GraphQLResponse<T>): T {
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data;
}

/** Waits until the sealer has chained every entry (it runs on its own, about every half second). */
async function sealed(): Promise<void> {
  const db = t.runtime.database.db;
  for (;;) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEntries)
      .where(sql`NOT EXISTS (SELECT 1 FROM ${auditChain} c WHERE c.entry_id = ${auditEntries.id})`);
    if (row?.n === 0) return;
    await sleep(50);
  }
}

/** Every page of an administrator's search. */
async function searchAll(filter: Record<string, unknown>) {
  const entries: { id: string; event: string; userId: string; details: unknown }[] = [];
  let after: string | null = null;
  do {
    const page: { auditEntries: { entries: typeof entries; nextCursor: string | null } } = data(
      await admin.gql(SEARCH, { filter, after }),
    );
    entries.push(...page.auditEntries.entries);
    after = page.auditEntries.nextCursor;
  } while (after);
  return entries;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, providerId } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: {
      firstName: 'Tess',
      lastName: 'Quiet',
      email: 'therapy.patient@example.net',
      dateOfBirth: '1984-02-03',
      phone: '555-301-0000',
    },
    account: { password: 'Therapy-Pass-2026!' },
  }));

  // The author writes, changes, reads, lists, signs and adds to a psychotherapy note about the patient.
  therapyId = data(
    await provider.gql<{ createNote: { id: string } }>(CREATE_NOTE, {
      input: { title: 'Session 4', content: 'Process notes', patientId, isPrivate: true },
    }),
  ).createNote.id;
  data(
    await provider.gql(UPDATE_NOTE, {
      input: { id: therapyId, title: 'Session 4', content: 'Process notes, revised', patientId, isPrivate: true },
    }),
  );
  data(await provider.gql(GET_NOTE, { id: therapyId }));
  data(await provider.gql(LIST_NOTES, { filter: { patientId } }));
  data(await provider.gql(HISTORY, { id: therapyId }));
  data(await provider.gql(SIGN_NOTE, { input: { id: therapyId, password: DEMO_PASSWORD } }));
  data(await provider.gql(ADDENDUM, { input: { noteId: therapyId, content: 'Follow-up', password: DEMO_PASSWORD } }));
  // An ordinary note about the same patient stays in the record, and in the trail, as before.
  ordinaryId = data(
    await provider.gql<{ createNote: { id: string } }>(CREATE_NOTE, {
      input: { title: 'Medication check', content: 'Dose unchanged', patientId },
    }),
  ).createNote.id;
  await sealed();
});

describe('a psychotherapy note in the audit trail', () => {
  it('still writes its entries, and the chain still verifies over them', async () => {
    const rows = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.userId} = ${providerId} AND ${auditEntries.details} ? 'sealed'`);
    // create, update, read, the list page's part, history, sign, addendum (and the reads that answer them).
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expect(new Set(rows.map((r) => r.event))).toEqual(
      new Set(['PSYCHOTHERAPY_NOTE_ACCESS', 'MEDICAL_RECORD_ACCESS', 'NOTE_SIGN', 'NOTE_ADDENDUM']),
    );
    expect((await verifyAuditTrail(t.runtime.database.db)).ok).toBe(true);
  });

  it('names neither the note nor the patient anywhere in the stored trail', async () => {
    const [row] = await t.runtime.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEntries)
      .where(sql`${auditEntries.details}::text LIKE ${`%${therapyId}%`}`);
    expect(row?.n).toBe(0);
    const [clear] = await t.runtime.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEntries)
      .where(
        sql`${auditEntries.event} = 'PSYCHOTHERAPY_NOTE_ACCESS' AND ${auditEntries.details}::text LIKE ${`%${patientId}%`}`,
      );
    expect(clear?.n).toBe(0);
  });

  it("an administrator's search finds the entries but cannot tie them to the patient or the note", async () => {
    const byEvent = await searchAll({ event: 'PSYCHOTHERAPY_NOTE_ACCESS' });
    expect(byEvent.length).toBeGreaterThanOrEqual(4);
    for (const entry of byEvent) {
      expect(JSON.stringify(entry)).not.toContain(patientId);
      expect(JSON.stringify(entry)).not.toContain(therapyId);
      const opened = data(await admin.gql<{ auditEntry: { details: unknown } }>(ENTRY, { id: entry.id }));
      expect(JSON.stringify(opened)).not.toContain(patientId);
    }
    // By the patient: the ordinary note is there, the psychotherapy note's writing, reading and signing are not.
    const byPatient = await searchAll({ patientId });
    expect(JSON.stringify(byPatient)).toContain(ordinaryId);
    expect(JSON.stringify(byPatient)).not.toContain(therapyId);
    expect(byPatient.map((e) => e.event)).not.toContain('PSYCHOTHERAPY_NOTE_ACCESS');
    expect(byPatient.map((e) => e.event)).not.toContain('NOTE_SIGN');
    expect(await searchAll({ text: therapyId })).toEqual([]);
  });

  it('an API token reads no more', async () => {
    const secret = generateApiTokenSecret();
    const [adminRow] = await t.runtime.database.db
      .execute<{ id: string }>(sql`SELECT id::text FROM users WHERE email = 'admin@demo.test'`)
      .then((r) => r.rows);
    await insertApiToken(t.runtime.database.db, {
      name: 'Collector',
      secret,
      scopes: ['audit:read'],
      createdBy: adminRow!.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    for (const query of ['event=PSYCHOTHERAPY_NOTE_ACCESS&limit=100', `patientId=${patientId}&limit=100`]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/audit/search?${query}`,
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ logs: { event: string }[] }>();
      if (query.startsWith('event')) expect(body.logs.length).toBeGreaterThanOrEqual(4);
      else expect(body.logs.map((l) => l.event)).not.toContain('PSYCHOTHERAPY_NOTE_ACCESS');
      expect(response.body).not.toContain(therapyId);
      if (query.startsWith('event')) expect(response.body).not.toContain(patientId);
    }
  });

  it('the compliance report names neither', async () => {
    const today = todayIn('UTC');
    const period = { startDate: addDays(today, -1), endDate: addDays(today, 1) };
    const report = data(await admin.gql(REPORT, { input: period }));
    expect(JSON.stringify(report)).not.toContain(patientId);
    expect(JSON.stringify(report)).not.toContain(therapyId);
  });

  it("the patient's access log shows none of it: the note is not the patient's to know of", async () => {
    const log = data(
      await patient.gql<{ recordAccessLog: { items: { kind: string; actorRole: string }[] } }>(ACCESS_LOG),
    ).recordAccessLog.items;
    // The ordinary note's writing shows; nothing of the psychotherapy note does (one note written in all).
    expect(log.filter((i) => i.kind.startsWith('note'))).toEqual([
      { kind: 'noteWritten', actorRole: 'provider', id: expect.any(String) as string },
    ]);
  });

  it('the author still reads the note, and what the trail holds about it', async () => {
    const note = data(await provider.gql<{ getNote: { content: string } }>(GET_NOTE, { id: therapyId })).getNote;
    expect(note.content).toBe('Process notes, revised');
    const activity = data(
      await provider.gql<{ psychotherapyNoteActivity: { event: string; action: string | null }[] }>(ACTIVITY, {
        id: therapyId,
      }),
    ).psychotherapyNoteActivity;
    expect(activity.map((a) => a.action)).toEqual(
      expect.arrayContaining(['create', 'update', 'read', 'list', 'history', 'sign', 'addendum']),
    );
    expect(activity.find((a) => a.action === 'sign')?.event).toBe('NOTE_SIGN');
    // No one else: not an administrator, not another provider, not for an ordinary note.
    expect((await admin.gql(ACTIVITY, { id: therapyId })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const other = new TestClient(t.app);
    await other.signIn('provider2@demo.test', DEMO_PASSWORD);
    expect((await other.gql(ACTIVITY, { id: therapyId })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await provider.gql(ACTIVITY, { id: ordinaryId })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    await sealed();
    expect((await verifyAuditTrail(t.runtime.database.db)).ok).toBe(true);
  });
});
