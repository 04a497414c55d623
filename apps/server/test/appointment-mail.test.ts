import { and, asc, eq, like, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@telehealth/shared';
import { appointmentReminders } from '../src/appointments/appointments.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { addJob } from '../src/jobs/add-job.ts';
import { demoClients, signIn } from './factories/accounts.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, sleep, type TestApp, type TestClient } from './helpers.ts';

const ZONE = 'America/New_York';
const CREATE = 'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id startsAt } }';
const UPDATE = 'mutation ($input: UpdateAppointmentInput!) { updateAppointment(input: $input) { id startsAt } }';
const CANCEL = 'mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }';
const SECRET_REASON = 'Worsening panic attacks';
const SECRET_NOTES = 'Discuss lithium levels';

let t: TestApp;
let provider: TestClient;
let providerId: string;
let serial = 0;
/** The patients of these tests: one name, each with an address of its own. */
const INVITED = { firstName: 'Nora', lastName: 'Invite', dateOfBirth: '1985-07-08' };

function weekday(weeksAhead: number, isoDay = 2): string {
  let date = addDays(todayIn(ZONE), 7 * weeksAhead + 1);
  while (((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1 !== isoDay) date = addDays(date, 1);
  return date;
}

async function book(app: TestApp, client: TestClient, input: Record<string, unknown>) {
  const response = await client.gql<{ createAppointment: { id: string; startsAt: string } }>(CREATE, {
    input: { time: '09:00', reason: SECRET_REASON, notes: SECRET_NOTES, ...input },
  });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  void app;
  return response.data.createAppointment;
}

async function mailsTo(app: TestApp, address: string) {
  return app.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, address))
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id));
}

function parse(ics: string) {
  // ical.js types parse()'s answer as any; it is the jCal array a Component takes.
  const calendar = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    method: calendar.getFirstPropertyValue('method'),
    timezone: calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: event.getFirstPropertyValue('sequence'),
    status: event.getFirstPropertyValue('status'),
    startTzid: event.getFirstProperty('dtstart')?.getParameter('tzid'),
    start: String(event.getFirstPropertyValue('dtstart')),
  };
}

async function reminderJobs(app: TestApp, appointmentId: string) {
  const result = await app.runtime.database.db.execute<{ key: string; run_at: string }>(
    sql`SELECT key, run_at FROM graphile_worker.jobs WHERE key LIKE ${`appointment:remind:${appointmentId}:%`} ORDER BY key`,
  );
  return result.rows.map((r) => ({ key: r.key, runAt: new Date(r.run_at).toISOString() }));
}

beforeAll(async () => {
  t = await createTestApp({ BOOKING_MAIL_GRACE_SECONDS: '0' });
  ({ provider, providerId } = await demoClients(t));
});

describe('invitations', () => {
  it('sends REQUEST, then REQUEST with a higher SEQUENCE, then CANCEL, all with one UID and a VTIMEZONE', async () => {
    const email = `invite.${++serial}@example.net`;
    const patientId = (await createPatient(provider, { ...INVITED, email })).id;
    const date = weekday(2);
    const booked = await book(t, provider, { patientId, date, appointmentType: 'video' });
    await t.runtime.jobs.drain();
    const [invitation, ...others] = await mailsTo(t, email);
    expect(others).toEqual([]);
    expect(invitation).toMatchObject({ kind: 'appointment-invitation', calendarMethod: 'REQUEST', language: 'en' });
    const first = parse(invitation!.calendarIcs!);
    expect(first).toMatchObject({
      method: 'REQUEST',
      timezone: ZONE,
      startTzid: ZONE,
      sequence: 0,
      status: 'CONFIRMED',
      start: `${date}T09:00:00`,
    });
    expect(first.uid).toContain(booked.id);
    expect(invitation!.textBody).toContain(`/video-call/${booked.id}`);

    await provider.gql(UPDATE, { input: { id: booked.id, time: '11:30' } });
    await t.runtime.jobs.drain();
    const moved = (await mailsTo(t, email))[1]!;
    expect(parse(moved.calendarIcs!)).toMatchObject({
      method: 'REQUEST',
      uid: first.uid,
      sequence: 1,
      start: `${date}T11:30:00`,
    });
    expect(moved.subject).toContain('has moved');

    await provider.gql(CANCEL, { input: { id: booked.id, reason: 'Provider is ill' } });
    await t.runtime.jobs.drain();
    const cancelled = (await mailsTo(t, email))[2]!;
    expect(cancelled).toMatchObject({ kind: 'appointment-cancelled', calendarMethod: 'CANCEL' });
    expect(parse(cancelled.calendarIcs!)).toMatchObject({
      method: 'CANCEL',
      uid: first.uid,
      sequence: 2,
      status: 'CANCELLED',
    });
    expect(await mailsTo(t, email)).toHaveLength(3);

    // The provider got the same three, naming the patient by initials only.
    const providerMails = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, 'provider@demo.test'), like(mailOutbox.calendarIcs, `%${booked.id}%`)));
    expect(providerMails.map((m) => m.calendarMethod)).toEqual(['REQUEST', 'REQUEST', 'CANCEL']);
    expect(providerMails[0]!.textBody).toContain('N. I.');
    expect(providerMails[0]!.textBody).not.toContain('Nora');

    // No health information anywhere: not the reason, not the notes, not the cancellation reason.
    for (const mail of [...(await mailsTo(t, email)), ...providerMails]) {
      for (const part of [mail.subject, mail.textBody, mail.htmlBody, mail.calendarIcs]) {
        expect(part).not.toContain('panic');
        expect(part).not.toContain('lithium');
        expect(part).not.toContain('Provider is ill');
      }
    }
  });

  it('sends nothing for a booking undone within the grace period', async () => {
    const graced = await createTestApp({ BOOKING_MAIL_GRACE_SECONDS: '1' });
    const { client } = await signIn(graced, 'provider@demo.test');
    const { id: patientId } = await createPatient(client, {
      firstName: 'Ugo',
      lastName: 'Undo',
      email: 'ugo.undo@example.net',
      dateOfBirth: '1980-01-01',
    });
    const booked = await book(graced, client, { patientId, date: weekday(3) });
    await client.gql(CANCEL, { input: { id: booked.id, reason: 'Booked by mistake' } });
    await sleep(1500);
    await graced.runtime.jobs.drain();
    expect(await mailsTo(graced, 'ugo.undo@example.net')).toEqual([]);
    // A booking left alone does go out once the grace period is over.
    const kept = await book(graced, client, { patientId, date: weekday(4) });
    await sleep(1500);
    await graced.runtime.jobs.drain();
    const mails = await mailsTo(graced, 'ugo.undo@example.net');
    expect(mails.map((m) => m.calendarMethod)).toEqual(['REQUEST']);
    expect(mails[0]!.calendarIcs).toContain(kept.id);
  });
});

describe('reminders', () => {
  it('are jobs 24 and 1 hours before the visit, moved by a reschedule and removed by a cancellation', async () => {
    const patientId = (await createPatient(provider, { ...INVITED, email: `remind.${++serial}@example.net` })).id;
    const booked = await book(t, provider, { patientId, date: weekday(5), time: '10:00' });
    const start = new Date(booked.startsAt).getTime();
    expect(await reminderJobs(t, booked.id)).toEqual([
      { key: `appointment:remind:${booked.id}:1`, runAt: new Date(start - 3_600_000).toISOString() },
      { key: `appointment:remind:${booked.id}:24`, runAt: new Date(start - 86_400_000).toISOString() },
    ]);
    const moved = await provider.gql<{ updateAppointment: { startsAt: string } }>(UPDATE, {
      input: { id: booked.id, time: '15:00' },
    });
    const newStart = new Date(moved.data!.updateAppointment.startsAt).getTime();
    expect((await reminderJobs(t, booked.id)).map((j) => j.runAt)).toEqual([
      new Date(newStart - 3_600_000).toISOString(),
      new Date(newStart - 86_400_000).toISOString(),
    ]);
    await provider.gql(CANCEL, { input: { id: booked.id, reason: 'Moving away' } });
    expect(await reminderJobs(t, booked.id)).toEqual([]);
  });

  it('goes out once however often its job runs, and not for a cancelled visit', async () => {
    const email = `remind.${++serial}@example.net`;
    const patientId = (await createPatient(provider, { ...INVITED, email })).id;
    const booked = await book(t, provider, { patientId, date: weekday(6), time: '13:00' });
    await t.runtime.jobs.drain();
    const before = (await mailsTo(t, email)).length;
    // As if the job ran, then ran again after a restart: the second finds the reminder recorded.
    for (let i = 0; i < 3; i++) {
      await addJob(t.runtime.database.db, 'appointment:remind', { appointmentId: booked.id, hoursBefore: 500 });
    }
    await t.runtime.jobs.drain();
    const reminders = (await mailsTo(t, email)).slice(before);
    expect(reminders.map((m) => m.kind)).toEqual(['appointment-reminder']);
    expect(reminders[0]!.calendarIcs).toBeNull();
    expect(reminders[0]!.textBody).not.toContain('panic');
    const recorded = await t.runtime.database.db
      .select()
      .from(appointmentReminders)
      .where(eq(appointmentReminders.appointmentId, booked.id));
    expect(recorded).toHaveLength(1);

    await provider.gql(CANCEL, { input: { id: booked.id, reason: 'Not needed' } });
    await t.runtime.jobs.drain();
    const afterCancel = (await mailsTo(t, email)).length;
    await addJob(t.runtime.database.db, 'appointment:remind', { appointmentId: booked.id, hoursBefore: 600 });
    await t.runtime.jobs.drain();
    expect(await mailsTo(t, email)).toHaveLength(afterCancel);
    void providerId;
  });
});

describe("a provider's calendar feed", () => {
  it('serves their visits with initials only at a private URL, until revoked', async () => {
    const patientId = (await createPatient(provider, { ...INVITED, email: `feed.${++serial}@example.net` })).id;
    const booked = await book(t, provider, { patientId, date: weekday(3, 3), time: '16:00' });
    const created = await provider.gql<{ createCalendarFeed: { url: string } }>(
      'mutation ($p: ID!) { createCalendarFeed(providerId: $p) { url createdAt } }',
      { p: providerId },
    );
    const url = new URL(created.data!.createCalendarFeed.url);
    const response = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/calendar');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const calendar = new ICAL.Component(ICAL.parse(response.body) as unknown[]);
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    const event = calendar
      .getAllSubcomponents('vevent')
      .find((e) => String(e.getFirstPropertyValue('uid')).startsWith(booked.id));
    expect(event?.getFirstPropertyValue('summary')).toBe('N. I. (in person)');
    expect(response.body).not.toContain('Nora');
    expect(response.body).not.toContain('panic');
    expect(String(event?.getFirstPropertyValue('dtstart'))).toContain('T16:00:00');

    const { client: other } = await signIn(t, 'provider2@demo.test');
    const denied = await other.gql('mutation ($p: ID!) { createCalendarFeed(providerId: $p) { url } }', {
      p: providerId,
    });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    await provider.gql('mutation ($p: ID!) { revokeCalendarFeed(providerId: $p) }', { p: providerId });
    // A revoked feed answers byte for byte like a token never given.
    const answerOf = async (path: string) => {
      const r = await t.app.inject({ method: 'GET', url: path });
      return [r.statusCode, r.headers['content-type'], r.body];
    };
    expect((await answerOf(url.pathname))[0]).toBe(404);
    expect(await answerOf(url.pathname)).toEqual(await answerOf(`/api/calendar/${'x'.repeat(43)}.ics`));
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/not-a-token.ics' })).statusCode).toBe(404);
  });
});

describe('the calendar feed in the log', () => {
  it('leaves the token out of every log line', async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    const { client, userId: id } = await signIn(logged, 'provider@demo.test');
    const created = await client.gql<{ createCalendarFeed: { url: string } }>(
      'mutation ($p: ID!) { createCalendarFeed(providerId: $p) { url } }',
      { p: id },
    );
    const url = new URL(created.data!.createCalendarFeed.url);
    const token = url.pathname.split('/').at(-1)!.replace('.ics', '');
    expect((await logged.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(token);
  });
});
