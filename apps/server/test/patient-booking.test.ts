/**
 * Patients booking and changing their own visits (issue 15, decision 030): the permission matrix of a patient's
 * own bookings, the practice's rules (minimum notice, horizon, kinds of visit, the window for changes), request
 * mode and the provider's confirmation, and the same checks and invitations as a booking by staff.
 */
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  APPOINTMENT_TIMES,
  BOOKING_MESSAGES,
  DEFAULT_BOOKING_POLICY,
  DEMO_CLINIC_PHONE,
  messageText,
  todayIn,
  zonedInstant,
} from '@telehealth/shared';
import { ConfigError, loadConfig } from '../src/config.ts';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { liveUrl, openLiveOrFail } from './live-helpers.ts';
import { signedInAccount, signIn, type SignedIn } from './factories/accounts.ts';
import { createPortalPatient, type PortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const ZONE = 'America/New_York';
const PHONE = '(503) 555-0100';
const PASSWORD = 'Booking-Test-2026!';
const FIELDS = 'id patientId providerId date time duration appointmentType status reason cancellationKind startsAt';
const BOOK = `mutation BookAppointment($input: BookAppointmentInput!) { bookAppointment(input: $input) { ${FIELDS} } }`;
const CONFIRM = `mutation ConfirmMyAppointment($id: ID!) { confirmMyAppointment(id: $id) { ${FIELDS} } }`;
const CANCEL = `mutation CancelMyAppointment($input: CancelMyAppointmentInput!) { cancelMyAppointment(input: $input) { ${FIELDS} } }`;
const RESCHEDULE = `mutation RescheduleMyAppointment($input: RescheduleMyAppointmentInput!) { rescheduleMyAppointment(input: $input) { ${FIELDS} } }`;
const SLOTS = 'query ($date: String!) { myAvailableSlots(date: $date) { time available state } }';
const POLICY =
  '{ bookingPolicy { changeWindowHours minNoticeHours horizonDays appointmentTypes mode duration clinicPhone joinEarlyMinutes } }';
const GET = `query ($id: ID!) { getAppointment(id: $id) { ${FIELDS} } }`;
const LIST = 'query { listAppointments(limit: 100) { items { id } } }';
const STAFF_CREATE = `mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { ${FIELDS} } }`;
const STAFF_STATUS = `mutation ($input: SetAppointmentStatusInput!) { setAppointmentStatus(input: $input) { ${FIELDS} } }`;
const STAFF_CANCEL = `mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { ${FIELDS} } }`;
const STAFF_UPDATE = `mutation ($input: UpdateAppointmentInput!) { updateAppointment(input: $input) { ${FIELDS} } }`;

interface Appointment {
  id: string;
  patientId: string;
  providerId: string;
  date: string;
  time: string;
  duration: number;
  appointmentType: string;
  status: string;
  reason: string;
  cancellationKind: string | null;
  startsAt: string;
}

let t: TestApp;
/** The same database with request mode, video visits only: a second server instance of another practice policy. */
let r: TestApp;

/**
 * A patient with a portal account (signed in on `on`), whose record `owner` created (so it is theirs); with no
 * owner the administrator created it, and it has no provider.
 */
const newPatient = (owner: SignedIn | null, on: TestApp = t): Promise<PortalPatient> =>
  createPortalPatient(t, owner?.client ?? admin, {
    record: { firstName: 'Rosa', dateOfBirth: '1986-05-04' },
    account: { password: PASSWORD },
    on,
  });

function isWeekend(date: string): boolean {
  return [0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay());
}

/** The first date `days` or more from today that is a weekday (the default working hours). */
function weekdayFrom(days: number): string {
  let date = addDays(todayIn(ZONE), days);
  while (isWeekend(date)) date = addDays(date, 1);
  return date;
}

/**
 * The n-th weekday after today. Distinct n give distinct dates whatever today is, so one test's time off never
 * lands on another test's day (counting calendar days did: 17 and 19 days from a Wednesday are the same Monday).
 */
function nthWeekday(n: number): string {
  let date = todayIn(ZONE);
  for (let counted = 0; counted < n;) {
    date = addDays(date, 1);
    if (!isWeekend(date)) counted += 1;
  }
  return date;
}

/** The next grid time at least an hour away (today or tomorrow): always inside a 24-hour window. */
function nearSlot(): { date: string; time: string } {
  const soon = Date.now() + 60 * 60_000;
  for (const date of [todayIn(ZONE), addDays(todayIn(ZONE), 1)]) {
    const time = APPOINTMENT_TIMES.find((at) => zonedInstant(date, at, ZONE).getTime() > soon);
    if (time) return { date, time };
  }
  throw new Error('no grid time in the next two days');
}

function data<T>(response: GraphQLResponse<T>): T {
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data;
}

const errorOf = (response: GraphQLResponse) => response.errors?.[0];

async function book(patient: SignedIn, input: Record<string, unknown>) {
  return patient.client.gql<{ bookAppointment: Appointment }>(BOOK, {
    input: { appointmentType: 'video', reason: 'Sleep has been worse', time: '10:00', ...input },
  });
}

async function staffBook(provider: SignedIn, patient: PortalPatient, input: Record<string, unknown>) {
  return data(
    await provider.client.gql<{ createAppointment: Appointment }>(STAFF_CREATE, {
      input: { patientId: patient.patientId, reason: 'Follow-up', time: '10:00', allowOutsideHours: true, ...input },
    }),
  ).createAppointment;
}

async function rowsOf(recordId: string) {
  return t.runtime.database.db.select().from(appointments).where(eq(appointments.patientId, recordId));
}

/**
 * The appointment mails to `address`: invitations, cancellations, reminders. A patient's first booking also sends
 * the "before your first visit" mail (first-visit.test.ts covers it), which is left out here.
 */
async function mailsTo(address: string) {
  return t.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, address), ne(mailOutbox.kind, 'first-visit-reminder')));
}

/** The keys of an appointment's reminder jobs waiting in the queue. */
async function reminderJobs(appointmentId: string): Promise<string[]> {
  const result = await t.runtime.database.db.execute<{ key: string }>(
    sql`SELECT key FROM graphile_worker.jobs WHERE key LIKE ${`appointment:remind:${appointmentId}:%`} ORDER BY key`,
  );
  return result.rows.map((row) => row.key);
}

async function lastAuditId(): Promise<number> {
  const rows = await t.runtime.database.db.select({ id: auditEntries.id }).from(auditEntries);
  return Math.max(0, ...rows.map((row) => row.id));
}

async function auditSince(since: number, userId: string) {
  return t.runtime.database.db
    .select()
    .from(auditEntries)
    .where(and(gt(auditEntries.id, since), eq(auditEntries.userId, userId)));
}

let provider: SignedIn;
let otherProvider: SignedIn;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp({ BOOKING_MAIL_GRACE_SECONDS: '0', CLINIC_PHONE: PHONE });
  r = await createTestApp(
    { BOOKING_MAIL_GRACE_SECONDS: '0', PATIENT_BOOKING_MODE: 'request', PATIENT_BOOKING_TYPES: 'video' },
    { databaseUrl: t.databaseUrl, demo: false },
  );
  provider = await signedInAccount(t, 'provider', { password: PASSWORD });
  otherProvider = await signedInAccount(t, 'provider', { password: PASSWORD });
  ({ client: admin } = await signIn(t, 'admin@demo.test'));
});

describe('the booking policy', () => {
  it('is the configured one, with the clinic phone and the video join window', async () => {
    const patient = await newPatient(provider);
    const { bookingPolicy } = data(await patient.client.gql<{ bookingPolicy: Record<string, unknown> }>(POLICY));
    expect(bookingPolicy).toEqual({
      ...DEFAULT_BOOKING_POLICY,
      clinicPhone: PHONE,
      joinEarlyMinutes: 15,
    });
    const requestPatient = await newPatient(provider, r);
    const requestPolicy = data(await requestPatient.client.gql<{ bookingPolicy: Record<string, unknown> }>(POLICY));
    expect(requestPolicy.bookingPolicy).toMatchObject({ mode: 'request', appointmentTypes: ['video'] });
  });
});

describe('a patient books their own visit', () => {
  it('with their own provider, confirmed at once, audited, and with the invitations of any booking', async () => {
    const patient = await newPatient(provider);
    const date = nthWeekday(10);
    const slots = data(
      await patient.client.gql<{ myAvailableSlots: { time: string; available: boolean }[] }>(SLOTS, { date }),
    );
    expect(slots.myAvailableSlots.find((s) => s.time === '10:00')?.available).toBe(true);
    const since = await lastAuditId();

    const booked = data(await book(patient, { date, time: '10:00' })).bookAppointment;

    expect(booked).toMatchObject({
      patientId: patient.patientId,
      providerId: provider.userId,
      date,
      time: '10:00',
      duration: DEFAULT_BOOKING_POLICY.duration,
      appointmentType: 'video',
      status: 'confirmed',
    });
    const created = (await auditSince(since, patient.userId)).filter((e) => e.event === 'APPOINTMENT_CREATE');
    expect(created).toHaveLength(1);
    expect(created[0]!.details).toMatchObject({
      appointmentIds: [booked.id],
      patientIds: [patient.patientId],
      bookedBy: 'patient',
    });
    // The slot is now taken for everyone.
    const after = data(
      await patient.client.gql<{ myAvailableSlots: { time: string; available: boolean }[] }>(SLOTS, { date }),
    );
    expect(after.myAvailableSlots.find((s) => s.time === '10:00')?.available).toBe(false);

    await t.runtime.jobs.drain();
    const toPatient = await mailsTo(patient.email);
    const toProvider = await mailsTo(provider.email);
    expect(toPatient.map((m) => [m.kind, m.calendarMethod])).toEqual([['appointment-invitation', 'REQUEST']]);
    expect(toProvider.some((m) => m.kind === 'appointment-invitation')).toBe(true);
  });

  it('never with another provider: refused, recorded, nothing written', async () => {
    const patient = await newPatient(provider);
    const since = await lastAuditId();
    const response = await book(patient, { date: nthWeekday(11), providerId: otherProvider.userId });
    expect(errorOf(response)).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(await rowsOf(patient.patientId)).toEqual([]);
    const denials = (await auditSince(since, patient.userId)).filter((e) => e.event === 'UNAUTHORIZED_ACCESS');
    expect(denials).toHaveLength(1);
    expect(denials[0]!.details).toMatchObject({ permission: 'appointment:book:any' });
  });

  it('only for their own record, and never reads, confirms, cancels or moves anyone else’s', async () => {
    const owner = await newPatient(provider);
    const stranger = await newPatient(provider);
    const mine = data(await book(owner, { date: nthWeekday(12), time: '11:00' })).bookAppointment;
    const theirs = await staffBook(provider, owner, { date: nthWeekday(12), time: '14:00' });

    for (const id of [mine.id, theirs.id]) {
      expect(errorOf(await stranger.client.gql(GET, { id }))?.extensions?.code).toBe('NOT_FOUND');
      expect(errorOf(await stranger.client.gql(CONFIRM, { id }))?.extensions?.code).toBe('NOT_FOUND');
      expect(errorOf(await stranger.client.gql(CANCEL, { input: { id } }))?.extensions?.code).toBe('NOT_FOUND');
      const moved = await stranger.client.gql(RESCHEDULE, { input: { id, date: nthWeekday(20), time: '09:00' } });
      expect(errorOf(moved)?.extensions?.code).toBe('NOT_FOUND');
    }
    const listed = data(await stranger.client.gql<{ listAppointments: { items: { id: string }[] } }>(LIST));
    expect(listed.listAppointments.items).toEqual([]);
    const rows = await rowsOf(owner.patientId);
    expect(rows.map((row) => row.status).sort()).toEqual(['confirmed', 'scheduled']);
    // Their own patient record is what they book for: the stranger's booking lands on the stranger's record.
    const own = data(await book(stranger, { date: nthWeekday(12), time: '15:00' })).bookAppointment;
    expect(own.patientId).toBe(stranger.patientId);
  });

  it("never through the staff's operations", async () => {
    const patient = await newPatient(provider);
    const visit = await staffBook(provider, patient, { date: nthWeekday(13), time: '09:00' });
    const update = await patient.client.gql(STAFF_UPDATE, { input: { id: visit.id, notes: 'Mine now' } });
    expect(errorOf(update)?.extensions?.code).toBe('FORBIDDEN');
    const status = await patient.client.gql(STAFF_STATUS, { input: { id: visit.id, status: 'completed' } });
    expect(errorOf(status)?.extensions?.code).toBe('FORBIDDEN');
    const create = await patient.client.gql(STAFF_CREATE, {
      input: { patientId: patient.patientId, date: nthWeekday(13), time: '11:00', reason: 'Visit' },
    });
    expect(errorOf(create)?.extensions?.code).toBe('FORBIDDEN');
    expect((await rowsOf(patient.patientId)).map((row) => row.status)).toEqual(['scheduled']);
  });

  it("takes the practice's start times only, and names no patient at all", async () => {
    const patient = await newPatient(provider);
    const offGrid = await book(patient, { date: nthWeekday(14), time: '09:10' });
    expect(errorOf(offGrid)?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fieldErrors: { time: 'Please select a time from the list' },
    });
    // On a quarter hour but off the practice's 30-minute step (decision 045).
    const offStep = await book(patient, { date: nthWeekday(14), time: '09:15' });
    expect(errorOf(offStep)?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fieldErrors: { time: messageText('appointmentMessages.offStep', { step: 30 }) },
    });
    const someoneElse = await newPatient(provider);
    const naming = await book(patient, { date: nthWeekday(14), patientId: someoneElse.patientId });
    expect(errorOf(naming)?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await rowsOf(patient.patientId)).toEqual([]);
    expect(await rowsOf(someoneElse.patientId)).toEqual([]);
  });

  it('needs a patient record and a provider', async () => {
    const noProvider = await newPatient(null);
    const response = await book(noProvider, { date: nthWeekday(14) });
    // Sent to the clinic by its number, since the practice has one (decision 048).
    expect(errorOf(response)?.message).toBe(messageText('bookingMessages.noProviderPhone', { phone: PHONE }));
    expect(await rowsOf(noProvider.patientId)).toEqual([]);
  });
});

describe("the practice's rules for a patient's booking", () => {
  it('refuses a time inside the minimum notice, and the slots show it as not available', async () => {
    const patient = await newPatient(provider);
    const near = nearSlot();
    const response = await book(patient, near);
    expect(errorOf(response)).toMatchObject({
      message: messageText('bookingMessages.tooSoon', { count: 24 }),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const slots = data(
      await patient.client.gql<{ myAvailableSlots: { time: string; available: boolean }[] }>(SLOTS, {
        date: near.date,
      }),
    );
    // Not offered: shown as not available, or not listed at all when that day is one the provider does not work (a
    // Friday evening's nearest grid time is on Saturday).
    expect(slots.myAvailableSlots.filter((s) => s.time === near.time && s.available)).toEqual([]);
    expect(await rowsOf(patient.patientId)).toEqual([]);
  });

  it('refuses a date past the horizon', async () => {
    const patient = await newPatient(provider);
    const date = weekdayFrom(DEFAULT_BOOKING_POLICY.horizonDays + 1);
    const response = await book(patient, { date });
    expect(errorOf(response)?.message).toBe(messageText('bookingMessages.tooFar', { count: 90 }));
    expect(errorOf(await patient.client.gql(SLOTS, { date }))?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await rowsOf(patient.patientId)).toEqual([]);
  });

  it('refuses a kind of visit the practice does not let patients book', async () => {
    const patient = await newPatient(provider, r);
    const response = await book(patient, { date: nthWeekday(15), appointmentType: 'in-person' });
    // This practice sets no number: demo mode's fictional one is named.
    expect(errorOf(response)?.message).toBe(
      messageText('bookingMessages.typeNotBookablePhone', { phone: DEMO_CLINIC_PHONE }),
    );
    expect(await rowsOf(patient.patientId)).toEqual([]);
  });

  it('meets the same checks as staff booking: the provider busy, outside working hours, time off', async () => {
    const patient = await newPatient(provider);
    const other = await newPatient(provider);
    const date = nthWeekday(16);
    await staffBook(provider, other, { date, time: '13:00' });
    expect(errorOf(await book(patient, { date, time: '13:00' }))?.extensions?.code).toBe('PROVIDER_BUSY');
    expect(errorOf(await book(patient, { date, time: '13:30' }))?.extensions?.code).toBeUndefined();
    // The patient's own other visit, with any provider.
    data(
      await admin.gql(STAFF_CREATE, {
        input: {
          patientId: patient.patientId,
          providerId: otherProvider.userId,
          date,
          time: '15:00',
          reason: 'Follow-up',
        },
      }),
    );
    expect(errorOf(await book(patient, { date, time: '15:00' }))?.extensions?.code).toBe('PATIENT_BUSY');
    // A Saturday: outside the default hours, and a patient is never offered to book it anyway.
    let saturday = date;
    while (new Date(`${saturday}T12:00:00Z`).getUTCDay() !== 6) saturday = addDays(saturday, 1);
    const outside = await book(patient, { date: saturday, time: '10:00', allowOutsideHours: true });
    expect(errorOf(outside)?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(errorOf(await book(patient, { date: saturday, time: '10:00' }))?.extensions?.code).toBe(
      'OUTSIDE_WORKING_HOURS',
    );
    const offDay = nthWeekday(17);
    data(
      await provider.client.gql('mutation ($input: AddTimeOffInput!) { addTimeOff(input: $input) { id } }', {
        input: { providerId: provider.userId, startDate: offDay, endDate: offDay },
      }),
    );
    expect(errorOf(await book(patient, { date: offDay, time: '10:00' }))?.extensions?.code).toBe(
      'OUTSIDE_WORKING_HOURS',
    );
    expect((await rowsOf(patient.patientId)).map((row) => row.status).sort()).toEqual(['confirmed', 'scheduled']);
  });
});

describe("a patient's changes to their own visits", () => {
  it('confirms a visit the practice booked ("I\'ll be there"), once', async () => {
    const patient = await newPatient(provider);
    const visit = await staffBook(provider, patient, { date: nthWeekday(18), time: '09:30' });
    const confirmed = data(await patient.client.gql<{ confirmMyAppointment: Appointment }>(CONFIRM, { id: visit.id }));
    expect(confirmed.confirmMyAppointment.status).toBe('confirmed');
    const again = await patient.client.gql(CONFIRM, { id: visit.id });
    expect(errorOf(again)?.message).toBe(BOOKING_MESSAGES.cannotConfirm);
  });

  it('reads a history that names only the fields the patient can see (never the staff notes; issue 24)', async () => {
    const patient = await newPatient(provider);
    const visit = await staffBook(provider, patient, { date: nthWeekday(23), time: '09:30' });
    data(await provider.client.gql(STAFF_UPDATE, { input: { id: visit.id, notes: 'Discuss the dose' } }));
    data(
      await provider.client.gql(STAFF_UPDATE, { input: { id: visit.id, notes: 'Ask about sleep', priority: 'high' } }),
    );
    const HISTORY = 'query ($id: ID!) { getAppointment(id: $id) { history { action fields } } }';
    type History = { getAppointment: { history: { action: string; fields: string[] | null }[] } };
    // The staff read every change, the notes included.
    const staff = data(await provider.client.gql<History>(HISTORY, { id: visit.id })).getAppointment.history;
    expect(staff.map((h) => h.fields)).toEqual([null, ['notes'], ['notes', 'priority']]);
    // The patient reads the change to the priority only; a change of the notes alone is not a step of theirs.
    const mine = data(await patient.client.gql<History>(HISTORY, { id: visit.id })).getAppointment.history;
    expect(mine).toEqual([
      { action: 'created', fields: null },
      { action: 'updated', fields: ['priority'] },
    ]);
  });

  it('cancels and reschedules before the window, and is told to call the clinic inside it', async () => {
    const patient = await newPatient(provider);
    const since = await lastAuditId();
    const far = data(await book(patient, { date: nthWeekday(19), time: '09:00' })).bookAppointment;
    const newDate = nthWeekday(21);
    const moved = data(
      await patient.client.gql<{ rescheduleMyAppointment: Appointment }>(RESCHEDULE, {
        input: { id: far.id, date: newDate, time: '16:00' },
      }),
    ).rescheduleMyAppointment;
    expect(moved).toMatchObject({ id: far.id, date: newDate, time: '16:00', status: 'confirmed' });
    // A reschedule meets the booking rules too.
    const tooFar = await patient.client.gql(RESCHEDULE, {
      input: { id: far.id, date: weekdayFrom(DEFAULT_BOOKING_POLICY.horizonDays + 2), time: '09:00' },
    });
    expect(errorOf(tooFar)?.message).toBe(messageText('bookingMessages.tooFar', { count: 90 }));

    const cancelled = data(
      await patient.client.gql<{ cancelMyAppointment: Appointment }>(CANCEL, { input: { id: far.id } }),
    ).cancelMyAppointment;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellationKind: 'patient' });
    const [cancelEntry] = (await auditSince(since, patient.userId)).filter(
      (e) => e.event === 'APPOINTMENT_UPDATE' && (e.details as { status?: string }).status === 'cancelled',
    );
    expect(cancelEntry?.details).toMatchObject({ appointmentIds: [far.id], patientIds: [patient.patientId] });

    const near = await staffBook(provider, patient, nearSlot());
    const callUs = messageText('bookingMessages.changeWindowClosedPhone', { count: 24, phone: PHONE });
    const refusedCancel = await patient.client.gql(CANCEL, { input: { id: near.id, reason: 'Busy' } });
    expect(errorOf(refusedCancel)).toMatchObject({
      message: callUs,
      extensions: { code: 'BAD_USER_INPUT', messageId: 'bookingMessages.changeWindowClosedPhone' },
    });
    expect(callUs).toContain(PHONE);
    const refusedMove = await patient.client.gql(RESCHEDULE, {
      input: { id: near.id, date: nthWeekday(22), time: '09:00' },
    });
    expect(errorOf(refusedMove)?.message).toBe(callUs);
    const [row] = await t.runtime.database.db.select().from(appointments).where(eq(appointments.id, near.id));
    expect(row).toMatchObject({ status: 'scheduled', startsAt: new Date(near.startsAt) });
  });
});

describe('request mode', () => {
  it('keeps a booking pending (the slot held, no invitation) until the provider confirms it', async () => {
    const patient = await newPatient(provider, r);
    const date = nthWeekday(23);
    const live = await openLiveOrFail(await liveUrl(t.app), {
      cookie: provider.client.cookie,
      origin: t.runtime.config.publicUrl,
    });
    const requested = data(await book(patient, { date, time: '11:30' })).bookAppointment;
    expect(requested.status).toBe('pending');
    // The provider's dashboard hears of it live (the message says only that something changed).
    expect(await live.next('appointments-changed')).toEqual({ type: 'appointments-changed' });
    live.close();
    // The slot is held: nobody else gets it meanwhile.
    const other = await newPatient(provider, r);
    expect(errorOf(await book(other, { date, time: '11:30' }))?.extensions?.code).toBe('PROVIDER_BUSY');
    await t.runtime.jobs.drain();
    await r.runtime.jobs.drain();
    expect(await mailsTo(patient.email)).toEqual([]);
    expect(await reminderJobs(requested.id)).toEqual([]);

    const confirmed = data(
      await provider.client.gql<{ setAppointmentStatus: Appointment }>(STAFF_STATUS, {
        input: { id: requested.id, status: 'confirmed' },
      }),
    ).setAppointmentStatus;
    expect(confirmed.status).toBe('confirmed');
    await t.runtime.jobs.drain();
    await r.runtime.jobs.drain();
    expect((await mailsTo(patient.email)).map((m) => [m.kind, m.calendarMethod])).toEqual([
      ['appointment-invitation', 'REQUEST'],
    ]);
    expect(await reminderJobs(requested.id)).toEqual([
      `appointment:remind:${requested.id}:1`,
      `appointment:remind:${requested.id}:24`,
    ]);

    // Moved by the patient, it waits for the provider again.
    const moved = data(
      await patient.client.gql<{ rescheduleMyAppointment: Appointment }>(RESCHEDULE, {
        input: { id: requested.id, date: nthWeekday(24), time: '10:30' },
      }),
    ).rescheduleMyAppointment;
    expect(moved.status).toBe('pending');
  });

  it('lets the provider decline a request', async () => {
    const patient = await newPatient(provider, r);
    const requested = data(await book(patient, { date: nthWeekday(25), time: '14:30' })).bookAppointment;
    const declined = data(
      await provider.client.gql<{ cancelAppointment: Appointment }>(STAFF_CANCEL, {
        input: { id: requested.id, reason: 'Not available that day' },
      }),
    ).cancelAppointment;
    expect(declined).toMatchObject({ status: 'cancelled', cancellationKind: 'provider' });
    await t.runtime.jobs.drain();
    await r.runtime.jobs.drain();
    // Never announced, so no cancellation goes out either.
    expect(await mailsTo(patient.email)).toEqual([]);
  });
});

describe('the configuration', () => {
  it('refuses a bad booking policy at start, naming each variable', () => {
    const env = {
      NODE_ENV: 'test',
      PATIENT_BOOKING_TYPES: 'video,house-call',
      PATIENT_BOOKING_MODE: 'sometimes',
      PATIENT_BOOKING_DURATION_MINUTES: '20',
      PATIENT_CHANGE_WINDOW_HOURS: '-1',
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      const named = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
      expect(named).toEqual([
        'PATIENT_BOOKING_DURATION_MINUTES',
        'PATIENT_BOOKING_MODE',
        'PATIENT_BOOKING_TYPES',
        'PATIENT_CHANGE_WINDOW_HOURS',
      ]);
    }
    expect(
      loadConfig({ NODE_ENV: 'test', PATIENT_BOOKING_TYPES: 'in-person' }).settings.current().bookingPolicy,
    ).toMatchObject({
      appointmentTypes: ['in-person'],
      mode: 'instant',
    });
  });
});
