/**
 * The administrator console's figures (`adminConsoleStats`, decision 038): only administrators; every figure
 * against data seeded here (accounts by role and state, active patients, appointments today and this week in the
 * practice's time zone, open access requests, mail not delivered, the newest chain verification); and a recent
 * activity that names events, staff and times, never patients or details.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, messageText, todayIn, zonedDateTime, zonedInstant } from '@telehealth/shared';
import { insertAppointments, type NewAppointmentRow } from '../src/appointments/appointments.repository.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { users } from '../src/auth/auth.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { createTestAccount, createTestApp, submitPatientAccessRequest, TestClient, type TestApp } from './helpers.ts';

// Far from UTC, so that the practice's day and the server's differ for most of the day.
const ZONE = 'Pacific/Auckland';
const PASSWORD = 'Console-Pass-2026!';

const STATS = `{ adminConsoleStats {
  accounts { role active count } activePatients appointmentsToday appointmentsThisWeek openAccessRequests
  undeliveredMail { waiting failed kept oldestWaitingAt } chainVerification { ok checkedAt entriesChecked }
  backup { lastStatus lastSucceededAt } recentActivity { event at actorRole actorName } timeZone today weekStart } }`;

interface Stats {
  accounts: { role: string | null; active: boolean; count: number }[];
  activePatients: number;
  appointmentsToday: number;
  appointmentsThisWeek: number;
  openAccessRequests: number;
  undeliveredMail: { waiting: number; failed: number; kept: number; oldestWaitingAt: string | null };
  chainVerification: { ok: boolean; checkedAt: string; entriesChecked: number | null } | null;
  backup: { lastStatus: string | null; lastSucceededAt: string | null };
  recentActivity: { event: string; at: string; actorRole: string; actorName: string | null }[];
  timeZone: string;
  today: string;
  weekStart: string;
}

let t: TestApp;
let admin: TestClient;
let providerId: string;
const clients: Record<'provider' | 'patient', TestClient> = {} as never;
let patientEmail: string;

async function stats(): Promise<Stats> {
  const response = await admin.gql<{ adminConsoleStats: Stats }>(STATS);
  expect(response.errors).toBeUndefined();
  return response.data!.adminConsoleStats;
}

async function insertPatient(values: Partial<typeof patients.$inferInsert> = {}): Promise<string> {
  const [row] = await t.runtime.database.db
    .insert(patients)
    .values({
      firstName: 'Console',
      lastName: `Patient${randomUUID().slice(0, 6)}`,
      email: `console.${randomUUID().slice(0, 8)}@example.com`,
      dateOfBirth: '1985-05-05',
      ownerId: providerId,
      ...values,
    })
    .returning({ id: patients.id });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp({ PRACTICE_TIME_ZONE: ZONE }, { demo: false });
  const make = (role: 'admin' | 'provider' | 'patient', label: string) =>
    createTestAccount(t.runtime, {
      email: `${label}@console.example`,
      firstName: label,
      lastName: 'Tester',
      role,
      password: PASSWORD,
      emailVerified: true,
    });
  await make('admin', 'admin');
  providerId = await make('provider', 'provider');
  const inactiveProvider = await make('provider', 'former');
  const patientAccount = await make('patient', 'patient');
  await make('patient', 'patient2');
  await t.runtime.database.db.update(users).set({ isActive: false }).where(eq(users.id, inactiveProvider));
  patientEmail = 'patient@console.example';
  await insertPatient({ accountId: patientAccount, firstName: 'Zelda', lastName: 'Portalpatient' });

  admin = new TestClient(t.app);
  expect((await admin.signIn('admin@console.example', PASSWORD)).success).toBe(true);
  clients.provider = new TestClient(t.app);
  expect((await clients.provider.signIn('provider@console.example', PASSWORD)).success).toBe(true);
  clients.patient = new TestClient(t.app);
  expect((await clients.patient.signIn(patientEmail, PASSWORD)).success).toBe(true);
});

describe('who may read the console', () => {
  it('answers an administrator', async () => {
    const response = await admin.gql(STATS);
    expect(response.errors).toBeUndefined();
    expect(response.data).toHaveProperty('adminConsoleStats.timeZone', ZONE);
  });

  it.each(['provider', 'patient'] as const)('refuses a %s, and records the attempt', async (role) => {
    const response = await clients[role].gql(STATS);
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(response.errors?.[0]?.message).toBe(messageText('messages.adminRequired'));
    const denied = await t.runtime.database.db.select({ details: auditEntries.details }).from(auditEntries)
      .where(sql`${auditEntries.event} = 'UNAUTHORIZED_ACCESS' AND ${auditEntries.url} = 'adminConsoleStats'
        AND ${auditEntries.userRole} = ${role}`);
    expect(denied.map((d) => d.details)).toContainEqual({ permission: 'system:monitor:any' });
  });

  it('refuses a caller without a session', async () => {
    const response = await new TestClient(t.app).gql(STATS);
    expect(response.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(response.data).toBeNull();
  });
});

describe('the figures', () => {
  it('counts accounts by role and state, and active patients', async () => {
    await insertPatient();
    await insertPatient({ isActive: false });
    await insertPatient({ deletedAt: new Date() });
    const figures = await stats();
    expect(figures.accounts).toEqual([
      { role: 'admin', active: true, count: 1 },
      { role: 'patient', active: true, count: 2 },
      { role: 'provider', active: true, count: 1 },
      { role: 'provider', active: false, count: 1 },
    ]);
    // The portal patient's record and one more; not the inactive one, not the deleted one.
    expect(figures.activePatients).toBe(2);
  });

  it("counts appointments today and this week in the practice's time zone, not cancelled ones", async () => {
    const now = new Date();
    const today = todayIn(ZONE, now);
    const monday = addDays(today, 1 - zonedDateTime(now, ZONE).weekday);
    const sunday = addDays(monday, 6);
    const planned: { date: string; time: string; cancelled?: boolean }[] = [
      // 00:15 in Auckland is the day before in UTC: counted today only with the practice's day.
      { date: today, time: '00:15' },
      { date: today, time: '12:00' },
      { date: today, time: '15:00', cancelled: true },
      { date: monday, time: '09:00' },
      { date: sunday, time: '23:00' },
      { date: addDays(monday, -1), time: '23:00' },
      { date: addDays(sunday, 1), time: '00:30' },
    ];
    const rows: NewAppointmentRow[] = [];
    for (const item of planned) {
      const startsAt = zonedInstant(item.date, item.time, ZONE);
      rows.push({
        patientId: await insertPatient(),
        providerId,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 15 * 60_000),
        timeZone: ZONE,
        duration: 15,
        appointmentType: 'video',
        status: item.cancelled ? 'cancelled' : 'scheduled',
        cancellationKind: item.cancelled ? 'provider' : null,
        reason: 'Follow-up',
      });
    }
    // Monday or Sunday can be today: one slot then holds two plans; the provider cannot be in two places.
    const unique = rows.filter(
      (row, index) => rows.findIndex((other) => other.startsAt.getTime() === row.startsAt.getTime()) === index,
    );
    await insertAppointments(t.runtime.database.db, unique, t.runtime.keyring);
    const counted = unique.map((row) => ({
      ...zonedDateTime(row.startsAt, ZONE),
      cancelled: row.status === 'cancelled',
    }));
    const figures = await stats();
    expect(figures.today).toBe(today);
    expect(figures.weekStart).toBe(monday);
    expect(figures.appointmentsToday).toBe(counted.filter((a) => !a.cancelled && a.date === today).length);
    expect(figures.appointmentsToday).toBeGreaterThanOrEqual(2);
    expect(figures.appointmentsThisWeek).toBe(
      counted.filter((a) => !a.cancelled && a.date >= monday && a.date <= sunday).length,
    );
    expect(figures.appointmentsThisWeek).toBeGreaterThanOrEqual(4);
  });

  it('counts open access requests and the mail not delivered', async () => {
    expect((await submitPatientAccessRequest(t.app)).data?.submitPatientAccessRequest.success).toBe(true);
    // The request's own mails are not what this test counts: the outbox holds exactly the rows below.
    const db = t.runtime.database.db;
    await db.delete(mailOutbox);
    const mail = (status: string, minutesAgo = 0) => ({
      toAddress: 'someone@example.com',
      subject: 'Subject',
      kind: 'invitation',
      language: 'en',
      status,
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    await db
      .insert(mailOutbox)
      .values([mail('queued', 90), mail('sending', 5), mail('failed'), mail('kept'), mail('kept'), mail('sent')]);
    const figures = await stats();
    expect(figures.openAccessRequests).toBe(1);
    expect(figures.undeliveredMail).toMatchObject({ waiting: 2, failed: 1, kept: 2 });
    const oldest = new Date(figures.undeliveredMail.oldestWaitingAt!).getTime();
    expect(Math.abs(oldest - (Date.now() - 90 * 60_000))).toBeLessThan(60_000);
  });

  it("shows when the newest good backup finished, and the newest run's state (backup_runs)", async () => {
    expect((await stats()).backup).toEqual({ lastStatus: null, lastSucceededAt: null });
    const db = t.runtime.database.db;
    const goodAt = new Date(Date.now() - 26 * 3_600_000);
    await db.execute(sql`
      INSERT INTO backup_runs (started_at, finished_at, status, trigger) VALUES
        (${new Date(goodAt.getTime() - 60_000).toISOString()}::timestamptz, ${goodAt.toISOString()}::timestamptz, 'succeeded', 'schedule'),
        (now() - interval '2 hours', now() - interval '119 minutes', 'failed', 'manual')`);
    expect((await stats()).backup).toEqual({ lastStatus: 'failed', lastSucceededAt: goodAt.toISOString() });
  });

  it('shows the newest verification of the audit chain, and none before the first', async () => {
    expect((await stats()).chainVerification).toBeNull();
    const entry = (event: string, details: Record<string, unknown>, at: Date) => ({
      timestamp: at,
      event,
      level: event === 'AUDIT_CHAIN_BROKEN' ? 'ERROR' : 'INFO',
      userId: 'system',
      userRole: 'system',
      details,
      hipaaRequired: false,
      retentionYears: 7,
    });
    const db = t.runtime.database.db;
    const earlier = new Date(Date.now() - 3_600_000);
    await db
      .insert(auditEntries)
      .values(
        entry('AUDIT_CHAIN_VERIFIED', { ok: true, entriesChecked: 1234, checkedAt: earlier.toISOString() }, earlier),
      );
    expect((await stats()).chainVerification).toEqual({
      ok: true,
      checkedAt: earlier.toISOString(),
      entriesChecked: 1234,
    });
    const later = new Date();
    await db
      .insert(auditEntries)
      .values(entry('AUDIT_CHAIN_BROKEN', { ok: false, entriesChecked: 1300, checkedAt: later.toISOString() }, later));
    expect((await stats()).chainVerification).toMatchObject({ ok: false, entriesChecked: 1300 });
  });
});

describe('recent activity', () => {
  it('names the event, the staff member and the time; never a patient, a patient id or details', async () => {
    const [record] = await t.runtime.database.db
      .select({ id: patients.id, lastName: patients.lastName })
      .from(patients)
      .where(eq(patients.lastName, 'Portalpatient'));
    // A read of patient data by the administrator (its entry names the patient in its details)...
    const read = await admin.gql(`query ($id: ID!) { getPatient(id: $id) { id } }`, { id: record!.id });
    expect(read.errors).toBeUndefined();
    // ...and a patient's own action (signing in again).
    expect((await new TestClient(t.app).signIn(patientEmail, PASSWORD)).success).toBe(true);

    const response = await admin.gql<{ adminConsoleStats: Stats }>(STATS);
    const activity = response.data!.adminConsoleStats.recentActivity;
    expect(activity.length).toBeGreaterThan(1);
    expect(activity.length).toBeLessThanOrEqual(10);
    const times = activity.map((a) => a.at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const item of activity) expect(Object.keys(item).sort()).toEqual(['actorName', 'actorRole', 'at', 'event']);

    const view = activity.find((a) => a.event === 'PATIENT_VIEW');
    expect(view).toMatchObject({ actorRole: 'admin', actorName: 'admin Tester' });
    const patientSignIn = activity.find((a) => a.actorRole === 'patient');
    expect(patientSignIn).toMatchObject({ event: 'LOGIN', actorName: null });

    const text = JSON.stringify(response.data);
    expect(text).not.toContain(record!.id);
    expect(text).not.toContain('Portalpatient');
    expect(text).not.toContain('patientIds');
    expect(text).not.toContain(patientEmail);
  });
});
