import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES, addDays, messageText, SLOT_HOLDING_STATUSES, todayIn } from '@telehealth/shared';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const APPOINTMENT_FIELDS =
  'id patient patientId providerId providerName date time duration reason notes appointmentType status priority videoCallEnabled startsAt endsAt timeZone seriesId cancellationKind cancelReason createdBy updatedAt history { action fromStatus toStatus fromStartsAt toStartsAt actorName }';
const CREATE = `mutation CreateAppointment($input: CreateAppointmentInput!) { createAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`;
const GET = `query GetAppointment($id: ID!) { getAppointment(id: $id) { ${APPOINTMENT_FIELDS} } }`;
const UPDATE = `mutation UpdateAppointment($input: UpdateAppointmentInput!) { updateAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`;
const CANCEL = `mutation CancelAppointment($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`;
const STATUS = `mutation SetAppointmentStatus($input: SetAppointmentStatusInput!) { setAppointmentStatus(input: $input) { id status history { action fromStatus toStatus } } }`;
const LIST = `query ListAppointments($filter: AppointmentFilterInput, $limit: Int, $nextToken: String) { listAppointments(filter: $filter, limit: $limit, nextToken: $nextToken) { items { id date time patient status seriesId startsAt } nextToken } }`;
const SLOTS = `query AvailableSlots($providerId: ID!, $date: String!, $duration: Int) { availableSlots(providerId: $providerId, date: $date, duration: $duration) { time available state } }`;
const AVAILABILITY = `query ($providerId: ID!) { providerAvailability(providerId: $providerId) { providerId custom workingHours { weekday startTime endTime } timeOff { id startDate endDate label } } }`;
const SET_HOURS = `mutation ($input: SetWorkingHoursInput!) { setWorkingHours(input: $input) { custom workingHours { weekday startTime endTime } } }`;
const ADD_TIME_OFF = `mutation ($input: AddTimeOffInput!) { addTimeOff(input: $input) { id startDate endDate } }`;
const REMOVE_TIME_OFF = `mutation ($providerId: ID!, $id: ID!) { removeTimeOff(providerId: $providerId, id: $id) { id } }`;

interface Appointment {
  id: string;
  patient: string;
  patientId: string;
  providerId: string;
  date: string;
  time: string;
  duration: number;
  reason: string;
  notes: string | null;
  status: string;
  startsAt: string;
  endsAt: string;
  seriesId: string | null;
  cancellationKind: string | null;
  history: { action: string; fromStatus: string | null; toStatus: string | null }[];
}

const ZONE = 'America/New_York';
let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let provider2Id: string;

/** The next Tuesday at least `weeksAhead` weeks from today (a working day for the default hours). */
function tuesday(weeksAhead: number): string {
  let date = addDays(todayIn(ZONE), 7 * weeksAhead + 1);
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 2) date = addDays(date, 1);
  return date;
}

async function book(
  client: TestClient,
  input: Record<string, unknown>,
): Promise<GraphQLResponse<{ createAppointment: Appointment }>> {
  return client.gql<{ createAppointment: Appointment }>(CREATE, {
    input: { time: '09:00', reason: 'Medication follow-up', ...input },
  });
}

async function booked(client: TestClient, input: Record<string, unknown>): Promise<Appointment> {
  const response = await book(client, input);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createAppointment;
}

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;
const countRows = async () =>
  (await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(appointments))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, patient, providerId, provider2Id } = await demoClients(t));
});

describe('the exclusion constraints', () => {
  it('hold over exactly the statuses the shared table says hold a slot', async () => {
    const result = await t.runtime.database.db.execute<{ name: string; def: string }>(
      sql`SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE contype = 'x' AND conrelid = 'appointments'::regclass ORDER BY conname`,
    );
    expect(result.rows.map((r) => r.name)).toEqual([
      'appointments_patient_no_overlap',
      'appointments_provider_no_overlap',
    ]);
    for (const { def } of result.rows) {
      const statuses = [...def.matchAll(/'([a-z-]+)'::text/g)].map((m) => m[1]);
      expect(new Set(statuses)).toEqual(new Set(SLOT_HOLDING_STATUSES));
    }
  });
});

describe('createAppointment', () => {
  it("answers the specification's messages for an empty form, and writes nothing", async () => {
    const before = await countRows();
    const response = await provider.gql(CREATE, { input: { patientId: '', date: '', time: '', reason: '   ' } });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const fieldErrors = (response.errors?.[0]?.extensions as { fieldErrors: Record<string, string> }).fieldErrors;
    expect(fieldErrors).toMatchObject({
      patientId: APPOINTMENT_MESSAGES.selectPatient,
      date: APPOINTMENT_MESSAGES.selectDate,
      time: APPOINTMENT_MESSAGES.selectTime,
      reason: APPOINTMENT_MESSAGES.provideReason,
    });
    expect(await countRows()).toBe(before);
  });

  it('refuses a date before today, a time off the grid and a duration off the list', async () => {
    const patientId = (await createPatient(provider)).id;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ date: addDays(todayIn(ZONE), -1) }, 'date', APPOINTMENT_MESSAGES.dateInPast],
      [{ date: tuesday(1), time: '09:10' }, 'time', APPOINTMENT_MESSAGES.timeOffGrid],
      [{ date: tuesday(1), time: '24:00' }, 'time', APPOINTMENT_MESSAGES.timeOffGrid],
      [{ date: tuesday(1), time: '09:15' }, 'time', messageText('appointmentMessages.offStep', { step: 30 })],
      [{ date: tuesday(1), duration: 20 }, 'duration', APPOINTMENT_MESSAGES.durationOffList],
      [{ date: '2027-02-30' }, 'date', APPOINTMENT_MESSAGES.invalidDate],
      [{ date: tuesday(1), appointmentType: 'phone' }, 'appointmentType', APPOINTMENT_MESSAGES.selectType],
    ];
    for (const [input, field, message] of cases) {
      const response = await book(provider, { patientId, ...input });
      const fieldErrors = (response.errors?.[0]?.extensions as { fieldErrors?: Record<string, string> })?.fieldErrors;
      expect(fieldErrors?.[field], JSON.stringify(input)).toBe(message);
    }
  });

  it("books with the specification's defaults, in the practice's time zone, and records who and when", async () => {
    const patientId = (await createPatient(provider, { firstName: 'Marta', lastName: 'Solis' })).id;
    const date = tuesday(2);
    const created = await booked(provider, { patientId, date, time: '10:30', notes: 'Bring the sleep diary' });
    expect(created).toMatchObject({
      patient: 'Marta Solis',
      patientId,
      providerId,
      date,
      time: '10:30',
      duration: 30,
      appointmentType: 'in-person',
      priority: 'normal',
      status: 'scheduled',
      videoCallEnabled: false,
      timeZone: ZONE,
      createdBy: providerId,
      notes: 'Bring the sleep diary',
    });
    // 10:30 in New York, whatever the server's own zone.
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    expect(local.format(new Date(created.startsAt))).toBe('10:30');
    expect(new Date(created.endsAt).getTime() - new Date(created.startsAt).getTime()).toBe(30 * 60_000);
    expect(created.history).toEqual([expect.objectContaining({ action: 'created', toStatus: 'scheduled' })]);
    // The reason and notes are stored encrypted.
    const [raw] = await t.runtime.database.db.select().from(appointments).where(eq(appointments.id, created.id));
    expect(raw?.reason.startsWith('enc:')).toBe(true);
    expect(raw?.notes?.startsWith('enc:')).toBe(true);
    const entries = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.event, 'APPOINTMENT_CREATE'),
          sql`${auditEntries.details}->'appointmentIds' ? ${created.id}`,
        ),
      );
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries[0]?.details)).not.toContain('sleep diary');
  });

  it('twenty simultaneous bookings of one slot leave exactly one appointment', async () => {
    const date = tuesday(3);
    const patientIds = await Promise.all(Array.from({ length: 20 }, async () => (await createPatient(provider)).id));
    const responses = await Promise.all(
      patientIds.map((patientId) => book(provider, { patientId, date, time: '11:00' })),
    );
    const succeeded = responses.filter((r) => r.data?.createAppointment);
    expect(succeeded).toHaveLength(1);
    for (const r of responses.filter((x) => !x.data)) {
      expect(codeOf(r)).toBe('PROVIDER_BUSY');
      expect(r.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.providerBusy);
    }
    const rows = await t.runtime.database.db
      .select()
      .from(appointments)
      .where(
        and(
          eq(appointments.providerId, providerId),
          eq(appointments.startsAt, new Date(succeeded[0]!.data!.createAppointment.startsAt)),
        ),
      );
    expect(rows).toHaveLength(1);
  });

  it('keeps a patient from two overlapping visits, also with two providers', async () => {
    const patientId = (await createPatient(admin)).id;
    const date = tuesday(4);
    await booked(admin, { patientId, providerId, date, time: '13:00', duration: 60 });
    const overlapping = await book(admin, { patientId, providerId: provider2Id, date, time: '13:30' });
    expect(codeOf(overlapping)).toBe('PATIENT_BUSY');
    expect(overlapping.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.patientBusy);
    // Back to back is not an overlap.
    await booked(admin, { patientId, providerId: provider2Id, date, time: '14:00' });
  });

  it('warns of a time outside working hours or on time off, and books it when staff confirm', async () => {
    const patientId = (await createPatient(provider)).id;
    const date = tuesday(5);
    const late = await book(provider, { patientId, date, time: '17:30', duration: 60 });
    expect(codeOf(late)).toBe('OUTSIDE_WORKING_HOURS');
    expect(late.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.outsideWorkingHours);
    const confirmed = await booked(provider, { patientId, date, time: '17:30', duration: 60, allowOutsideHours: true });
    expect(confirmed.time).toBe('17:30');

    const away = tuesday(6);
    const timeOff = await provider.gql<{ addTimeOff: { id: string } }>(ADD_TIME_OFF, {
      input: { providerId, startDate: away, endDate: addDays(away, 2), label: 'Conference' },
    });
    expect(timeOff.data?.addTimeOff.id).toBeTruthy();
    expect(codeOf(await book(provider, { patientId, date: away, time: '10:00' }))).toBe('OUTSIDE_WORKING_HOURS');
    const slots = await provider.gql<{ availableSlots: { time: string; state: string }[] }>(SLOTS, {
      providerId,
      date: away,
    });
    expect(new Set(slots.data?.availableSlots.map((s) => s.state))).toEqual(new Set(['time-off']));
    await provider.gql(REMOVE_TIME_OFF, { providerId, id: timeOff.data!.addTimeOff.id });
    await booked(provider, { patientId, date: away, time: '10:00' });
  });
});

describe('availableSlots and working hours', () => {
  it('answers each start time of the grid, taken ones as taken, and follows the provider’s own hours', async () => {
    const patientId = (await createPatient(provider2)).id;
    const date = tuesday(7);
    await booked(provider2, { patientId, date, time: '09:00', duration: 60 });
    const slots = await provider2.gql<{ availableSlots: { time: string; available: boolean; state: string }[] }>(
      SLOTS,
      {
        providerId: provider2Id,
        date,
        duration: 30,
      },
    );
    const byTime = new Map(slots.data!.availableSlots.map((s) => [s.time, s.state]));
    expect(slots.data!.availableSlots).toHaveLength(20);
    expect(byTime.get('08:30')).toBe('free');
    expect(byTime.get('09:00')).toBe('taken');
    expect(byTime.get('09:30')).toBe('taken');
    expect(byTime.get('10:00')).toBe('free');
    expect(byTime.get('17:30')).toBe('free');

    const set = await provider2.gql<{ setWorkingHours: { custom: boolean } }>(SET_HOURS, {
      input: { providerId: provider2Id, intervals: [{ weekday: 2, startTime: '12:00', endTime: '16:00' }] },
    });
    expect(set.data?.setWorkingHours.custom).toBe(true);
    const after = await provider2.gql<{ availableSlots: { time: string; state: string }[] }>(SLOTS, {
      providerId: provider2Id,
      date,
    });
    const states = new Map(after.data!.availableSlots.map((s) => [s.time, s.state]));
    // Only the hours' own start times are offered (decision 045).
    expect([...states.keys()]).toEqual(['12:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30']);
    expect(states.get('12:00')).toBe('free');
    const overlapping = await provider2.gql(SET_HOURS, {
      input: {
        providerId: provider2Id,
        intervals: [
          { weekday: 1, startTime: '08:00', endTime: '12:00' },
          { weekday: 1, startTime: '11:00', endTime: '15:00' },
        ],
      },
    });
    expect(overlapping.errors?.[0]?.message).toContain('Working hours overlap on Monday');
    // Back to the default week for the other tests.
    await t.runtime.database.db.execute(sql`DELETE FROM provider_working_hours WHERE provider_id = ${provider2Id}`);
    await t.runtime.database.db.execute(sql`DELETE FROM provider_schedules WHERE provider_id = ${provider2Id}`);
  });

  it("refuses another provider's hours to a provider, and allows them to an administrator", async () => {
    const denied = await provider.gql(AVAILABILITY, { providerId: provider2Id });
    expect(denied.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.cannotManageAvailability);
    const read = await admin.gql<{ providerAvailability: { custom: boolean; workingHours: unknown[] } }>(AVAILABILITY, {
      providerId: provider2Id,
    });
    expect(read.data?.providerAvailability).toMatchObject({ custom: false });
    expect(read.data?.providerAvailability.workingHours).toHaveLength(5);
    const slots = await provider.gql(SLOTS, { providerId: provider2Id, date: tuesday(1) });
    expect(slots.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('rescheduling, statuses and cancelling', () => {
  it('moves an appointment with the same checks, raising its sequence and recording the move', async () => {
    const [p1, p2] = [(await createPatient(provider)).id, (await createPatient(provider)).id];
    const date = tuesday(8);
    const first = await booked(provider, { patientId: p1, date, time: '09:00' });
    await booked(provider, { patientId: p2, date, time: '10:00' });
    const clash = await provider.gql(UPDATE, { input: { id: first.id, time: '10:00' } });
    expect(codeOf(clash)).toBe('PROVIDER_BUSY');
    const moved = await provider.gql<{ updateAppointment: Appointment }>(UPDATE, {
      input: { id: first.id, date: addDays(date, 1), time: '14:00', duration: 45 },
    });
    expect(moved.data?.updateAppointment).toMatchObject({ date: addDays(date, 1), time: '14:00', duration: 45 });
    expect(moved.data?.updateAppointment.history.map((h) => h.action)).toEqual(['created', 'rescheduled']);
    const [row] = await t.runtime.database.db.select().from(appointments).where(eq(appointments.id, first.id));
    expect(row?.sequence).toBe(1);
    // The old time is free again.
    await booked(provider, { patientId: p1, date, time: '09:00' });
  });

  it('allows the transitions of the shared table only, recording each', async () => {
    const patientId = (await createPatient(provider)).id;
    const a = await booked(provider, { patientId, date: tuesday(9), time: '15:00' });
    const confirmed = await provider.gql<{ setAppointmentStatus: Appointment }>(STATUS, {
      input: { id: a.id, status: 'confirmed' },
    });
    expect(confirmed.data?.setAppointmentStatus.status).toBe('confirmed');
    const back = await provider.gql(STATUS, { input: { id: a.id, status: 'pending' } });
    expect(codeOf(back)).toBe('WRONG_TRANSITION');
    expect(back.errors?.[0]?.message).toBe('An appointment that is confirmed cannot become pending.');
    // A visit weeks ahead cannot be completed yet.
    const early = await provider.gql(STATUS, { input: { id: a.id, status: 'completed' } });
    expect(early.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.notStartedYet);
    const noReason = await provider.gql(CANCEL, { input: { id: a.id, reason: ' ' } });
    expect(noReason.errors?.[0]?.message).toContain(APPOINTMENT_MESSAGES.cancelReasonRequired);
    const cancelled = await provider.gql<{ cancelAppointment: Appointment }>(CANCEL, {
      input: { id: a.id, reason: 'Patient asked to move to next month', cancellationKind: 'patient' },
    });
    expect(cancelled.data?.cancelAppointment).toMatchObject({ status: 'cancelled', cancellationKind: 'patient' });
    expect(cancelled.data?.cancelAppointment.history.map((h) => h.action)).toEqual(['created', 'status', 'cancelled']);
    const again = await provider.gql(CANCEL, { input: { id: a.id, reason: 'twice' } });
    expect(codeOf(again)).toBe('WRONG_TRANSITION');
    // A cancelled visit no longer holds its slot.
    await booked(provider, { patientId, date: tuesday(9), time: '15:00' });
  });
});

describe('recurring visits', () => {
  it("keeps the local time across both of the practice zone's daylight-saving changes", async () => {
    const patientId = (await createPatient(provider)).id;
    // From early March to late November of next year: both US changes fall inside.
    const year = Number(todayIn(ZONE).slice(0, 4)) + 1;
    let start = `${year}-03-02`;
    while (new Date(`${start}T12:00:00Z`).getUTCDay() !== 3) start = addDays(start, 1);
    const firstVisit = await booked(provider, {
      patientId,
      date: start,
      time: '08:00',
      recurrence: { frequency: 'weekly', until: `${year}-11-30` },
    });
    expect(firstVisit.seriesId).toBeTruthy();
    const list = await provider.gql<{ listAppointments: { items: Appointment[] } }>(LIST, {
      filter: { patientId, from: start, to: `${year}-12-31` },
      limit: 100,
    });
    const items = list.data!.listAppointments.items;
    expect(items.length).toBeGreaterThanOrEqual(38);
    expect(new Set(items.map((i) => i.time))).toEqual(new Set(['08:00']));
    expect(new Set(items.map((i) => i.seriesId))).toEqual(new Set([firstVisit.seriesId]));
    // The instants do move: 13:00 UTC in winter, 12:00 UTC in summer.
    expect(new Set(items.map((i) => new Date(i.startsAt).getUTCHours()))).toEqual(new Set([12, 13]));
  });

  it('checks every occurrence first: one busy week creates nothing and names the date', async () => {
    const patientId = (await createPatient(provider)).id;
    const other = (await createPatient(provider)).id;
    const start = tuesday(12);
    const busyDate = addDays(start, 14);
    await booked(provider, { patientId: other, date: busyDate, time: '16:00' });
    const before = await countRows();
    const response = await book(provider, {
      patientId,
      date: start,
      time: '16:00',
      recurrence: { frequency: 'weekly', count: 6 },
    });
    expect(codeOf(response)).toBe('SERIES_CONFLICTS');
    expect(response.errors?.[0]?.message).toBe(
      `The series could not be scheduled: ${busyDate} is not free. Nothing was scheduled.`,
    );
    expect((response.errors?.[0]?.extensions as { conflicts: unknown[] }).conflicts).toEqual([
      { date: busyDate, time: '16:00', code: 'PROVIDER_BUSY' },
    ]);
    expect(await countRows()).toBe(before);
  });

  it('moves this and the following open occurrences by the same days and to the new time', async () => {
    const patientId = (await createPatient(provider)).id;
    const start = tuesday(22);
    await booked(provider, { patientId, date: start, time: '09:00', recurrence: { frequency: 'weekly', count: 4 } });
    const list = await provider.gql<{ listAppointments: { items: Appointment[] } }>(LIST, { filter: { patientId } });
    const [first, second, third] = list.data!.listAppointments.items;
    await provider.gql(CANCEL, { input: { id: third!.id, reason: 'Holiday' } });
    const moved = await provider.gql(UPDATE, {
      input: { id: second!.id, date: addDays(second!.date, 1), time: '10:30', scope: 'following' },
    });
    expect(moved.errors).toBeUndefined();
    const after = await provider.gql<{ listAppointments: { items: Appointment[] } }>(LIST, { filter: { patientId } });
    expect(after.data!.listAppointments.items.map((i) => [i.date, i.time, i.status])).toEqual([
      [first!.date, '09:00', 'scheduled'],
      [addDays(start, 8), '10:30', 'scheduled'],
      [addDays(start, 14), '09:00', 'cancelled'],
      [addDays(start, 22), '10:30', 'scheduled'],
    ]);
  });

  it('cancels this and the following occurrences', async () => {
    const patientId = (await createPatient(provider)).id;
    const first = await booked(provider, {
      patientId,
      date: tuesday(14),
      time: '12:00',
      recurrence: { frequency: 'biweekly', count: 4 },
    });
    const list = await provider.gql<{ listAppointments: { items: Appointment[] } }>(LIST, { filter: { patientId } });
    const [, second] = list.data!.listAppointments.items;
    await provider.gql(CANCEL, { input: { id: second!.id, reason: 'Moving away', scope: 'following' } });
    const after = await provider.gql<{ listAppointments: { items: Appointment[] } }>(LIST, { filter: { patientId } });
    expect(after.data!.listAppointments.items.map((i) => i.status)).toEqual([
      'scheduled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(after.data!.listAppointments.items[0]!.id).toBe(first.id);
  });
});

describe('who sees what', () => {
  it("answers another provider's appointment like a missing one, and records the attempt", async () => {
    const patientId = (await createPatient(provider)).id;
    const a = await booked(provider, { patientId, date: tuesday(15), time: '08:30' });
    const response = await provider2.gql(GET, { id: a.id });
    expect(response.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.notFound);
    const moved = await provider2.gql(UPDATE, { input: { id: a.id, time: '09:00' } });
    expect(moved.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.notFound);
    const denials = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->'appointmentIds' ? ${a.id}`),
      );
    expect(denials).toHaveLength(2);
    // Nor may a provider book another's patient, or for another provider.
    const notTheirs = await book(provider2, { patientId, date: tuesday(15), time: '10:00' });
    expect(notTheirs.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.selectPatient);
    const forOther = await book(provider, { patientId, providerId: provider2Id, date: tuesday(15), time: '10:00' });
    expect(codeOf(forOther)).toBe('FORBIDDEN');
  });

  it('lets a patient read their own appointments, without the staff notes, and change none', async () => {
    const patientAccount = (await patient.me())!.userId;
    const patientId = (await createPatient(provider)).id;
    await t.runtime.database.db.update(patients).set({ accountId: patientAccount }).where(eq(patients.id, patientId));
    const mine = await booked(provider, { patientId, date: tuesday(16), time: '09:30', notes: 'Staff only' });
    const other = await booked(provider, {
      patientId: (await createPatient(provider)).id,
      date: tuesday(16),
      time: '10:30',
    });
    const list = await patient.gql<{ listAppointments: { items: Appointment[] } }>(LIST, {});
    expect(list.data!.listAppointments.items.map((i) => i.id)).toEqual([mine.id]);
    const read = await patient.gql<{ getAppointment: Appointment }>(GET, { id: mine.id });
    expect(read.data?.getAppointment).toMatchObject({ id: mine.id, notes: null, reason: 'Medication follow-up' });
    expect((await patient.gql(GET, { id: other.id })).errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.notFound);
    const create = await book(patient, { patientId, date: tuesday(17) });
    expect(create.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.cannotCreate);
    const cancel = await patient.gql(CANCEL, { input: { id: mine.id, reason: 'no' } });
    expect(cancel.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.cannotUpdate);
    await t.runtime.database.db.update(patients).set({ accountId: null }).where(eq(patients.id, patientId));
  });

  it('pages the list for real, in start order, and audits each page', async () => {
    const patientId = (await createPatient(admin)).id;
    await booked(admin, {
      patientId,
      providerId: provider2Id,
      date: tuesday(20),
      time: '08:00',
      recurrence: { frequency: 'weekly', count: 7 },
    });
    const seen: string[] = [];
    let nextToken: string | null = null;
    let pages = 0;
    do {
      const page: GraphQLResponse<{ listAppointments: { items: Appointment[]; nextToken: string | null } }> =
        await admin.gql(LIST, { filter: { patientId }, limit: 3, nextToken });
      seen.push(...page.data!.listAppointments.items.map((i) => i.startsAt));
      nextToken = page.data!.listAppointments.nextToken;
      pages++;
    } while (nextToken);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect([...seen].sort()).toEqual(seen);
    const forged = await admin.gql(LIST, { filter: { patientId }, nextToken: 'abc.def' });
    expect(codeOf(forged)).toBe('BAD_USER_INPUT');
  });
});

describe('the list read in one statement (decision 057)', () => {
  it('records the page shown: its ids in order, each patient once, the count', async () => {
    const filter = { providerId };
    type Page = { items: { id: string }[]; nextToken: string | null };
    const pages: Page[] = [];
    let token: string | null = null;
    for (let i = 0; i < 2; i++) {
      const page: GraphQLResponse<{ listAppointments: Page }> = await provider.gql<{ listAppointments: Page }>(
        'query ($f: AppointmentFilterInput, $t: String) { listAppointments(filter: $f, limit: 2, nextToken: $t) { items { id } nextToken } }',
        { f: filter, t: token },
      );
      pages.push(page.data!.listAppointments);
      token = page.data!.listAppointments.nextToken;
    }
    const entries = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'APPOINTMENT_VIEW'), eq(auditEntries.url, 'listAppointments')))
      .orderBy(desc(auditEntries.id))
      .limit(2);
    const rows = await t.runtime.database.db.select().from(appointments);
    const patientOf = new Map(rows.map((r) => [r.id, r.patientId]));
    const expected = pages.map((page, i) => {
      const ids = page.items.map((item) => item.id);
      return {
        appointmentIds: ids,
        patientIds: [...new Set(ids.map((id) => patientOf.get(id)))],
        count: ids.length,
        page: i === 0 ? 'first' : 'next',
      };
    });
    expect(entries.map((e) => e.details).reverse()).toEqual(expected);
  });

  it('answers the same rows whichever fields are asked for, through fragments too', async () => {
    const all = await provider.gql<{ listAppointments: { items: Record<string, unknown>[] } }>(
      `query { listAppointments(limit: 5) { items { ${APPOINTMENT_FIELDS} } } }`,
    );
    const some = await provider.gql<{ listAppointments: { items: Record<string, unknown>[] } }>(
      'query { listAppointments(limit: 5) { items { ...Row } } } fragment Row on Appointment { id date time reason patient }',
    );
    expect(some.data?.listAppointments.items).toEqual(
      all.data?.listAppointments.items.map(({ id, date, time, reason, patient }) => ({
        id,
        date,
        time,
        reason,
        patient,
      })),
    );
  });
});
