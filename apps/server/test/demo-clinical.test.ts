import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { ensureDemoClinicalHistory } from '../src/demo/demo-clinical.ts';
import { ensureDemoPractice } from '../src/demo/demo-practice.ts';
import { ensureDemoSchedule } from '../src/demo/demo-schedule.ts';
import { appointments, waitlistEntries } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { measures, safetyAlerts } from '../src/measures/measures.table.ts';
import { conversations, messages } from '../src/messages/messages.table.ts';
import { notes } from '../src/notes/notes.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { videoRecordings } from '../src/video/video.table.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';

const ZONE = 'America/New_York';
/** A Wednesday at noon in the practice: the demo patient's Thursday visits of the last two weeks are past. */
const NOW = new Date('2026-12-02T17:00:00Z');
const DAY = 86_400_000;

const LIST_NOTES = `query ($filter: NoteFilterInput) { listNotes(limit: 100, filter: $filter) {
  items { id status signedAt appointmentId addendumCount content } } }`;
const GET_NOTE = `query ($id: ID!) { getNote(id: $id) { id status addenda { content signedAt } } }`;
const RESULTS = `query ($patientId: ID!) { questionnaireResults(patientId: $patientId) {
  id instrument total completedAt answers { item loinc value } } }`;
const ALERTS = `query ($patientId: ID) { safetyAlerts(patientId: $patientId) {
  id total acknowledgedAt acknowledgedByName acknowledgement } }`;
const UNREAD = '{ unreadMessageCount }';

let t: TestApp;
let demoPatientId: string;
let provider: TestClient;

/** Rows of every table the clinical history writes, to tell that a second run adds nothing. */
async function counts() {
  const db = t.runtime.database.db;
  const count = async (table: typeof notes | typeof measures | typeof conversations | typeof messages) =>
    (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
  return {
    notes: await count(notes),
    measures: await count(measures),
    conversations: await count(conversations),
    messages: await count(messages),
    waitlist: (await db.select({ n: sql<number>`count(*)::int` }).from(waitlistEntries))[0]!.n,
    alerts: (await db.select({ n: sql<number>`count(*)::int` }).from(safetyAlerts))[0]!.n,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.runtime.database.db;
  await ensureDemoPractice(db, t.runtime.keyring);
  await ensureDemoSchedule(db, t.runtime.keyring, ZONE, NOW);
  await ensureDemoClinicalHistory(db, t.runtime.keyring, t.runtime.secret, ZONE, NOW);
  const [row] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(sql`${patients.accountId} IS NOT NULL`);
  demoPatientId = row!.id;
  provider = new TestClient(t.app);
  await provider.signIn('provider@demo.test', DEMO_PASSWORD);
});

describe('the demo clinical history', () => {
  it('gives the demo patient notes signed after their visits, one with an addendum', async () => {
    const list = await provider.gql<{
      listNotes: {
        items: {
          id: string;
          status: string;
          signedAt: string | null;
          appointmentId: string | null;
          addendumCount: number;
        }[];
      };
    }>(LIST_NOTES, { filter: { patientId: demoPatientId } });
    const items = list.data!.listNotes.items;
    const signed = items.filter((n) => n.status === 'signed');
    expect(signed.length).toBeGreaterThanOrEqual(2);
    const visits = await t.runtime.database.db
      .select({ id: appointments.id, endsAt: appointments.endsAt })
      .from(appointments)
      .where(and(eq(appointments.patientId, demoPatientId), eq(appointments.status, 'completed')));
    for (const note of signed.filter((n) => n.appointmentId)) {
      const visit = visits.find((v) => v.id === note.appointmentId);
      expect(visit).toBeDefined();
      expect(new Date(note.signedAt!).getTime()).toBeGreaterThan(visit!.endsAt.getTime());
      expect(new Date(note.signedAt!).getTime()).toBeLessThan(NOW.getTime());
    }
    const withAddendum = signed.find((n) => n.addendumCount > 0);
    expect(withAddendum).toBeDefined();
    const note = await provider.gql<{ getNote: { addenda: { content: string; signedAt: string }[] } }>(GET_NOTE, {
      id: withAddendum!.id,
    });
    expect(note.data!.getNote.addenda[0]!.content.length).toBeGreaterThan(10);
    // Across the practice: a good share of the completed visits have a note, most signed.
    const all = await t.runtime.database.db
      .select({ signedAt: notes.signedAt, appointmentId: notes.appointmentId })
      .from(notes);
    expect(all.filter((n) => n.appointmentId && n.signedAt).length).toBeGreaterThan(20);
  });

  it('gives the demo patient PHQ-9 results over three months with item answers, and an acknowledged alert', async () => {
    const results = await provider.gql<{
      questionnaireResults: { instrument: string; total: number; completedAt: string; answers: { value: number }[] }[];
    }>(RESULTS, { patientId: demoPatientId });
    const phq9 = results
      .data!.questionnaireResults.filter((r) => r.instrument === 'phq9')
      .sort((a, b) => a.completedAt.localeCompare(b.completedAt));
    expect(phq9.length).toBeGreaterThanOrEqual(6);
    const span = new Date(phq9.at(-1)!.completedAt).getTime() - new Date(phq9[0]!.completedAt).getTime();
    expect(span).toBeGreaterThan(90 * DAY);
    for (const r of phq9) {
      expect(r.answers).toHaveLength(9);
      expect(r.answers.reduce((sum, a) => sum + a.value, 0)).toBe(r.total);
    }
    // Improving: the latest score well below the first.
    expect(phq9.at(-1)!.total).toBeLessThan(phq9[0]!.total - 5);
    expect(results.data!.questionnaireResults.some((r) => r.instrument === 'gad7')).toBe(true);

    const alerts = await provider.gql<{
      safetyAlerts: {
        acknowledgedAt: string | null;
        acknowledgedByName: string | null;
        acknowledgement: string | null;
      }[];
    }>(ALERTS, { patientId: demoPatientId });
    expect(alerts.data!.safetyAlerts).toHaveLength(1);
    expect(alerts.data!.safetyAlerts[0]!.acknowledgedByName).toBeTruthy();
    expect(alerts.data!.safetyAlerts[0]!.acknowledgement).toMatch(/safety plan/i);
    // The one worsening patient: another provider's, whose latest PHQ-9 is well above the first.
    const rows = await t.runtime.database.db
      .select({ patientId: measures.patientId, total: measures.total, completedAt: measures.completedAt })
      .from(measures)
      .where(eq(measures.instrument, 'phq9'));
    const byPatient = new Map<string, typeof rows>();
    for (const r of rows) byPatient.set(r.patientId, [...(byPatient.get(r.patientId) ?? []), r]);
    const trends = [...byPatient.values()].map((list) => {
      const sorted = list.sort((a, b) => a.completedAt!.getTime() - b.completedAt!.getTime());
      return sorted.at(-1)!.total! - sorted[0]!.total!;
    });
    expect(trends.filter((d) => d > 5)).toHaveLength(1);
    expect(trends.filter((d) => d < -5).length).toBeGreaterThanOrEqual(5);
  });

  it('gives the demo patient conversations with unread messages, waiting patients, and no recordings', async () => {
    const patient = new TestClient(t.app);
    await patient.signIn('patient@demo.test', DEMO_PASSWORD);
    expect((await patient.gql<{ unreadMessageCount: number }>(UNREAD)).data!.unreadMessageCount).toBeGreaterThan(0);
    const db = t.runtime.database.db;
    const threads = await db.select().from(conversations).where(eq(conversations.patientId, demoPatientId));
    expect(threads.length).toBeGreaterThanOrEqual(2);
    expect((await db.select().from(waitlistEntries).where(eq(waitlistEntries.status, 'waiting'))).length).toBe(4);
    expect(await db.select().from(videoRecordings)).toHaveLength(0);
    const seeded = await db
      .select({ event: auditEntries.event })
      .from(auditEntries)
      .where(sql`${auditEntries.userAgent} = 'demo seed'`);
    expect(seeded.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'NOTE_CREATE',
        'NOTE_SIGN',
        'NOTE_ADDENDUM',
        'QUESTIONNAIRE_SUBMITTED',
        'SAFETY_ALERT_ACKNOWLEDGED',
        'MESSAGE_SEND',
        'DIAGNOSIS_ADD',
        'MEDICATION_START',
      ]),
    );
  });

  it('gives each measured patient a primary diagnosis and a medication whose dose went up during the scores', async () => {
    const provider = new TestClient(t.app);
    await provider.signIn('provider@demo.test', DEMO_PASSWORD);
    const meds = await provider.gql<{
      patientMedications: { medications: { drugName: string; events: { kind: string }[] }[] };
    }>('query ($id: ID!) { patientMedications(patientId: $id) { medications { drugName events { kind } } } }', {
      id: demoPatientId,
    });
    const escitalopram = meds.data!.patientMedications.medications.find((m) => m.drugName === 'escitalopram');
    expect(escitalopram?.events.map((e) => e.kind)).toEqual(['started', 'dose-changed']);
    const diagnoses = await provider.gql<{ patientDiagnoses: { code: string; primary: boolean }[] }>(
      'query ($id: ID!) { patientDiagnoses(patientId: $id) { code primary } }',
      { id: demoPatientId },
    );
    expect(diagnoses.data!.patientDiagnoses.filter((d) => d.primary).map((d) => d.code)).toEqual(['F41.1']);
  });

  it('writes nothing more when it runs again', async () => {
    const before = await counts();
    expect(before.notes).toBeGreaterThan(0);
    await ensureDemoClinicalHistory(t.runtime.database.db, t.runtime.keyring, t.runtime.secret, ZONE, NOW);
    expect(await counts()).toEqual(before);
  });
});
