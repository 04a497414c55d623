/**
 * Start times follow the provider's working hours (issue 25, decision 045): what availableSlots and
 * myAvailableSlots offer, what createAppointment, updateAppointment and bookAppointment accept, the practice's
 * step (a setting, administrators only, audited), and the public answer of what the practice's hours cover.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, APPOINTMENT_MESSAGES, ERROR_CODES, MESSAGES, messageText, todayIn } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient, insertPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, TestClient } from './helpers.ts';

const ZONE = 'America/New_York';
const PASSWORD = 'Slots-Test-2026!';
const SLOTS = `query ($providerId: ID!, $date: String!, $duration: Int) {
  availableSlots(providerId: $providerId, date: $date, duration: $duration) { time available state } }`;
const MY_SLOTS = 'query ($date: String!) { myAvailableSlots(date: $date) { time available } }';
const CREATE = `mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id date time } }`;
const UPDATE = `mutation ($input: UpdateAppointmentInput!) { updateAppointment(input: $input) { id time } }`;
const BOOK = `mutation ($input: BookAppointmentInput!) { bookAppointment(input: $input) { id time } }`;
const SET_HOURS = `mutation ($input: SetWorkingHoursInput!) { setWorkingHours(input: $input) { custom } }`;
const SET_STEP = `mutation ($input: UpdatePracticeSettingsInput!) {
  updatePracticeSettings(input: $input) { values { slotStepMinutes } sources { key source } } }`;
const PRACTICE_HOURS = '{ practiceHours { slotStepMinutes earliestStart latestEnd preferredTimes } }';

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let provider2Id: string;

/** The first Thursday at least `weeksAhead` weeks from today. */
function thursday(weeksAhead: number): string {
  let date = addDays(todayIn(ZONE), 7 * weeksAhead + 1);
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 4) date = addDays(date, 1);
  return date;
}

const codeOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions?.code;
const fieldErrorsOf = (response: GraphQLResponse) =>
  (response.errors?.[0]?.extensions as { fieldErrors?: Record<string, string> } | undefined)?.fieldErrors;

async function setHours(
  client: TestClient,
  id: string,
  intervals: { weekday: number; startTime: string; endTime: string }[],
) {
  const response = await client.gql(SET_HOURS, { input: { providerId: id, intervals } });
  expect(response.errors).toBeUndefined();
}

async function slotTimes(date: string, duration = 30): Promise<string[]> {
  const response = await provider.gql<{ availableSlots: { time: string; available: boolean }[] }>(SLOTS, {
    providerId,
    date,
    duration,
  });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.availableSlots.filter((s) => s.available).map((s) => s.time);
}

function book(time: string, date: string, patientId: string, extra: Record<string, unknown> = {}) {
  return provider.gql<{ createAppointment: { id: string; time: string } }>(CREATE, {
    input: { patientId, date, time, reason: 'Early follow-up', ...extra },
  });
}

async function setStep(step: number) {
  const response = await admin.gql<{ updatePracticeSettings: { values: { slotStepMinutes: number } } }>(SET_STEP, {
    input: { slotStepMinutes: step },
  });
  expect(response.errors).toBeUndefined();
  expect(response.data?.updatePracticeSettings.values.slotStepMinutes).toBe(step);
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, providerId, provider2Id } = await demoClients(t));
  // A patient account whose record's provider is provider@demo.test: their own bookings go to that provider.
  ({ client: patient } = await createPortalPatient(t, provider, {
    record: { firstName: 'Noor', lastName: 'Early', email: 'slots.patient@example.net', dateOfBirth: '1990-01-02' },
    account: { password: PASSWORD },
  }));
});

describe('start times from working hours', () => {
  it('by default offers the specification’s grid: 08:00 to 17:30 every 30 minutes', async () => {
    const times = await slotTimes(thursday(1));
    expect(times).toHaveLength(20);
    expect(times[0]).toBe('08:00');
    expect(times.at(-1)).toBe('17:30');
  });

  it('a provider working 06:00-20:00 is offered and booked at 06:30 and 19:30, never at 05:30 or 20:00', async () => {
    await setHours(provider, providerId, [{ weekday: 4, startTime: '06:00', endTime: '20:00' }]);
    const date = thursday(2);
    const times = await slotTimes(date);
    expect(times[0]).toBe('06:00');
    expect(times.at(-1)).toBe('19:30');
    expect(times).toHaveLength(28);
    expect(times).not.toContain('05:30');
    expect(times).not.toContain('20:00');
    // A 60-minute visit must end by 20:00: its last start is 19:00.
    expect((await slotTimes(date, 60)).at(-1)).toBe('19:00');

    const patientId = await insertPatient(t, { firstName: 'Iris', ownerId: providerId });
    const early = await book('06:30', date, patientId);
    expect(early.errors).toBeUndefined();
    expect(early.data?.createAppointment.time).toBe('06:30');
    const late = await book('19:30', date, patientId);
    expect(late.errors).toBeUndefined();
    expect(late.data?.createAppointment.time).toBe('19:30');
    // Taken now, so no longer offered.
    expect(await slotTimes(date)).not.toContain('06:30');

    for (const time of ['05:30', '20:00']) {
      const refused = await book(time, date, patientId);
      expect(codeOf(refused), time).toBe(ERROR_CODES.outsideWorkingHours);
      expect(refused.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.outsideWorkingHours);
    }
    // The visit must fit whole: 19:45 for 30 minutes would end after 20:00 (and is off the 30-minute step).
    expect(codeOf(await book('19:30', date, patientId, { duration: 45 }))).toBe(ERROR_CODES.outsideWorkingHours);
  });

  it('moves a visit with the same rule: into the early hours, not before them', async () => {
    const date = thursday(3);
    const patientId = await insertPatient(t, { firstName: 'Iris', ownerId: providerId });
    const created = await book('10:00', date, patientId);
    const id = created.data!.createAppointment.id;
    const before = await provider.gql(UPDATE, { input: { id, time: '05:30' } });
    expect(codeOf(before)).toBe(ERROR_CODES.outsideWorkingHours);
    const moved = await provider.gql<{ updateAppointment: { time: string } }>(UPDATE, { input: { id, time: '06:00' } });
    expect(moved.errors).toBeUndefined();
    expect(moved.data?.updateAppointment.time).toBe('06:00');
  });

  it('offers a patient the same early and late times, and refuses them one outside with their own message', async () => {
    const date = thursday(4);
    const mine = await patient.gql<{ myAvailableSlots: { time: string; available: boolean }[] }>(MY_SLOTS, { date });
    const times = mine.data!.myAvailableSlots.filter((s) => s.available).map((s) => s.time);
    expect(times[0]).toBe('06:00');
    expect(times.at(-1)).toBe('19:30');
    const input = { appointmentType: 'video', date, reason: 'Sleep check-in' };
    const outside = await patient.gql(BOOK, { input: { ...input, time: '05:30' } });
    expect(codeOf(outside)).toBe(ERROR_CODES.outsideWorkingHours);
    expect(outside.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.outsideWorkingHoursPatient);
    const booked = await patient.gql<{ bookAppointment: { time: string } }>(BOOK, {
      input: { ...input, time: '06:30' },
    });
    expect(booked.errors).toBeUndefined();
    expect(booked.data?.bookAppointment.time).toBe('06:30');
  });
});

describe('the practice’s step', () => {
  it('is 30 minutes until an administrator chooses 15: then 06:15 is offered and booked', async () => {
    const date = thursday(5);
    const patientId = await insertPatient(t, { firstName: 'Iris', ownerId: providerId });
    expect(await slotTimes(date)).not.toContain('06:15');
    const offStep = await book('06:15', date, patientId);
    expect(codeOf(offStep)).toBe(ERROR_CODES.badUserInput);
    expect(fieldErrorsOf(offStep)?.['time']).toBe(messageText('appointmentMessages.offStep', { step: 30 }));
    // Never a time off the quarter hours, whatever the step.
    expect(fieldErrorsOf(await book('06:10', date, patientId))?.['time']).toBe(APPOINTMENT_MESSAGES.timeOffGrid);

    await setStep(15);
    const times = await slotTimes(date);
    expect(times.slice(0, 3)).toEqual(['06:00', '06:15', '06:30']);
    expect(times.at(-1)).toBe('19:30');
    expect(times).toHaveLength(55);
    const booked = await book('06:15', date, patientId);
    expect(booked.errors).toBeUndefined();
    expect(booked.data?.createAppointment.time).toBe('06:15');
    const hours = await new TestClient(t.app).gql<{ practiceHours: { slotStepMinutes: number } }>(PRACTICE_HOURS);
    expect(hours.data?.practiceHours.slotStepMinutes).toBe(15);

    // The change is audited like every setting's, with its old and new value.
    const entries = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'SETTING_UPDATE'), eq(auditEntries.url, 'updatePracticeSettings')));
    expect(entries.map((e) => e.details)).toContainEqual(
      expect.objectContaining({ setting: 'slotStepMinutes', oldValue: 30, newValue: 15, oldSource: 'builtIn' }),
    );
    await setStep(30);
  });

  it('is changed by administrators only, and refuses any step but 15 or 30', async () => {
    for (const client of [provider, patient]) {
      const refused = await client.gql(SET_STEP, { input: { slotStepMinutes: 15 } });
      expect(codeOf(refused)).toBe(ERROR_CODES.forbidden);
      expect(refused.errors?.[0]?.message).toBe(MESSAGES.adminRequired);
    }
    const anonymous = await new TestClient(t.app).gql(SET_STEP, { input: { slotStepMinutes: 15 } });
    expect(codeOf(anonymous)).toBe(ERROR_CODES.unauthenticated);
    const wrong = await admin.gql(SET_STEP, { input: { slotStepMinutes: 20 } });
    expect(codeOf(wrong)).toBe(ERROR_CODES.badUserInput);
    expect(t.runtime.config.settings.current().slotStepMinutes).toBe(30);
    const refusals = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.url, 'updatePracticeSettings')));
    expect(refusals).toHaveLength(2);
  });
});

describe('what the practice’s hours cover (public)', () => {
  const covered = async () => {
    const response = await new TestClient(t.app).gql<{
      practiceHours: { earliestStart: string; latestEnd: string; preferredTimes: string[] };
    }>(PRACTICE_HOURS);
    if (!response.data) throw new Error(JSON.stringify(response.errors));
    return response.data.practiceHours;
  };

  it('offers evening only when someone works after 17:00, and weekends only when someone works then', async () => {
    const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, startTime: '09:00', endTime: '17:00' }));
    await setHours(admin, providerId, weekdays);
    await setHours(admin, provider2Id, weekdays);
    expect(await covered()).toEqual({
      earliestStart: '09:00',
      latestEnd: '17:00',
      preferredTimes: ['morning', 'afternoon', 'flexible'],
      slotStepMinutes: 30,
    });
    await setHours(provider2, provider2Id, [...weekdays, { weekday: 6, startTime: '10:00', endTime: '13:00' }]);
    expect((await covered()).preferredTimes).toEqual(['morning', 'afternoon', 'weekends', 'flexible']);
    await setHours(provider, providerId, [{ weekday: 4, startTime: '06:00', endTime: '20:00' }]);
    expect(await covered()).toMatchObject({
      earliestStart: '06:00',
      latestEnd: '20:00',
      preferredTimes: ['morning', 'afternoon', 'evening', 'weekends', 'flexible'],
    });
  });
});
