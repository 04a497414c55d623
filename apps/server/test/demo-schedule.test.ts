import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '@telehealth/shared';
import { ensureDemoPractice } from '../src/demo/demo-practice.ts';
import { ensureDemoSchedule } from '../src/demo/demo-schedule.ts';
import { appointments } from '../src/appointments/appointments.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const ZONE = 'America/New_York';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await ensureDemoPractice(t.runtime.database.db, t.runtime.keyring);
});

describe('the demo schedule', () => {
  it('gives each demo provider past, today’s and coming visits, some by video, and the demo patient a series', async () => {
    // A Wednesday at noon in the practice, so that "today" is a working day with visits before and after.
    const now = new Date('2026-12-02T17:00:00Z');
    await ensureDemoSchedule(t.runtime.database.db, t.runtime.keyring, ZONE, now);
    const db = t.runtime.database.db;
    const rows = await db.select().from(appointments);
    const providers = new Set(rows.map((r) => r.providerId));
    expect(providers.size).toBe(2);
    expect(rows.some((r) => r.startsAt < now && r.status === 'completed')).toBe(true);
    expect(rows.some((r) => r.startsAt > now && ['scheduled', 'confirmed', 'pending'].includes(r.status))).toBe(true);
    expect(rows.some((r) => r.appointmentType === 'video')).toBe(true);
    const today = todayIn(ZONE, now);
    const todays = rows.filter(
      (r) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(r.startsAt) === today,
    );
    expect(todays.length).toBeGreaterThanOrEqual(2);
    const series = await db
      .select({ seriesId: appointments.seriesId, n: sql<number>`count(*)::int` })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .where(and(isNotNull(appointments.seriesId), isNotNull(patients.accountId)))
      .groupBy(appointments.seriesId);
    expect(series).toEqual([expect.objectContaining({ n: 8 })]);
    // Runs once: a second start adds nothing.
    await ensureDemoSchedule(t.runtime.database.db, t.runtime.keyring, ZONE, now);
    expect(await db.select({ id: appointments.id }).from(appointments)).toHaveLength(rows.length);
  });
});
