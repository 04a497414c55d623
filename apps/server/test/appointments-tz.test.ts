import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, DEMO_PASSWORD, todayIn } from '@telehealth/shared';
import { createTestApp, TEST_DATA_KEY, TestClient, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/slots-under-tz.ts');
let t: TestApp;
let date: string;

beforeAll(async () => {
  t = await createTestApp();
  const provider = new TestClient(t.app);
  const providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  const patient = await provider.gql<{ createPatient: { id: string } }>(
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName: 'Zoe', lastName: 'Zone', email: 'zoe.zone@example.net', dateOfBirth: '1990-05-05' } },
  );
  // A Wednesday a few weeks ahead, with one visit late in the practice's day (already the next day in UTC).
  date = addDays(todayIn('America/New_York'), 21);
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 3) date = addDays(date, 1);
  const booked = await provider.gql(
    'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
    {
      input: { patientId: patient.data!.createPatient.id, providerId, date, time: '17:30', reason: 'Check-in' },
    },
  );
  expect(booked.errors).toBeUndefined();
});

/** What a server process started with this TZ answers (the same database and configuration otherwise). */
async function answerUnder(tz: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, [FIXTURE, date], {
    env: {
      ...process.env,
      TZ: tz,
      NODE_ENV: 'test',
      DATABASE_URL: t.databaseUrl,
      AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
      DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
      DATA_DIR: t.runtime.config.dataDir,
      LOG_LEVEL: 'silent',
      DEMO_MODE: 'true',
      DATABASE_POOL_MAX: '2',
    },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe("the server's own time zone", () => {
  it('changes nothing: TZ=UTC and TZ=Pacific/Auckland answer the same slots and the same appointment times', async () => {
    const [utc, auckland] = await Promise.all([answerUnder('UTC'), answerUnder('Pacific/Auckland')]);
    expect(auckland).toEqual(utc);
    const { slots, list } = utc as {
      slots: { data: { availableSlots: { time: string; state: string }[] } };
      list: { data: { listAppointments: { items: { date: string; time: string }[] } } };
    };
    expect(slots.data.availableSlots.find((s) => s.time === '17:30')?.state).toBe('taken');
    expect(slots.data.availableSlots.find((s) => s.time === '08:00')?.state).toBe('free');
    expect(list.data.listAppointments.items).toEqual([expect.objectContaining({ date, time: '17:30' })]);
  });
});
