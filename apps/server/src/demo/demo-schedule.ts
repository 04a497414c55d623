import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { addDays, APPOINTMENT_TIMES, minutesOf, todayIn, type AppointmentStatus } from '@telehealth/shared';
import { insertAppointments, type NewAppointmentRow } from '../appointments/appointments.repository.ts';
import { occurrence, weekdayOf } from '../appointments/schedule.ts';
import { actorScope } from '../access/scope.ts';
import { SYSTEM_ACTOR } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { findActivePatientsOf } from '../patients/patients.repository.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { createRandom } from './practice-data.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';

const REASONS = [
  'Medication follow-up',
  'Initial psychiatric evaluation',
  'Therapy session',
  'Anxiety follow-up',
  'Sleep review',
  'Mood check-in',
  'Medication management',
  'ADHD follow-up',
];
/** Days before and after today that the demo schedule covers. */
const PAST_DAYS = 21;
const FUTURE_DAYS = 35;

/**
 * A believable schedule for demo mode, so that the calendar is never empty on a first start: for each demo
 * provider, two to five visits on each working day from three weeks ago to five weeks ahead among their own
 * patients (past ones completed, some no-shows and cancellations; today's and later ones scheduled, confirmed or
 * pending; about a third by video), and a weekly series for the demo patient. Runs once (when no appointment
 * exists); written straight to the tables, so it sends no invitations.
 */
export async function ensureDemoSchedule(
  db: Database,
  keyring: Keyring,
  zone: string,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS.demoSchedule})`);
    const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(appointments);
    if (n > 0) return;
    const random = createRandom(2027);
    const today = todayIn(zone, now);
    const rows: NewAppointmentRow[] = [];
    const demoPatientAccount = (await findUserByEmail(tx, 'patient@demo.test'))?.id ?? null;
    for (const email of ['provider@demo.test', 'provider2@demo.test']) {
      const provider = await findUserByEmail(tx, email);
      if (!provider) continue;
      const own = await findActivePatientsOf(tx, provider.id, ['lastName']);
      if (own.length === 0) continue;
      /** Minutes taken per date, so that the provider's visits never overlap. */
      const taken = new Map<string, [number, number][]>();
      const fits = (date: string, time: string, duration: number) => {
        const start = minutesOf(time);
        return (
          start + duration <= 18 * 60 &&
          !(taken.get(date) ?? []).some(([from, to]) => start < to && from < start + duration)
        );
      };
      const take = (date: string, time: string, duration: number) => {
        taken.set(date, [...(taken.get(date) ?? []), [minutesOf(time), minutesOf(time) + duration]]);
      };
      const add = (
        patientId: string,
        date: string,
        time: string,
        duration: number,
        options: { video: boolean; status: AppointmentStatus; seriesId?: string; reason: string },
      ) => {
        const slot = occurrence(date, time, duration, zone);
        take(date, time, duration);
        rows.push({
          id: randomUUID(),
          patientId,
          providerId: provider.id,
          startsAt: slot.startsAt,
          endsAt: slot.endsAt,
          timeZone: zone,
          duration,
          appointmentType: options.video ? 'video' : 'in-person',
          status: options.status,
          priority: random.next() < 0.1 ? 'high' : 'normal',
          reason: options.reason,
          notes: null,
          seriesId: options.seriesId ?? null,
          invitationSequence: 0,
          ...(options.status === 'cancelled'
            ? {
                cancellationKind: random.pick(['patient', 'provider', 'late'] as const),
                cancelReason: 'Schedule conflict',
              }
            : {}),
          createdBy: provider.id,
          updatedBy: provider.id,
          statusChangedBy: provider.id,
        });
      };

      // The demo patient's weekly video series with the first provider, on Thursdays at 14:00.
      const demoRecord = own.find((p) => p.accountId !== null && p.accountId === demoPatientAccount);
      if (demoRecord) {
        const seriesId = randomUUID();
        let date = addDays(today, -14);
        while (weekdayOf(date) !== 4) date = addDays(date, 1);
        for (let week = 0; week < 8; week++, date = addDays(date, 7)) {
          add(demoRecord.id, date, '14:00', 45, {
            video: true,
            status: date < today ? 'completed' : 'confirmed',
            seriesId,
            reason: 'Therapy session',
          });
        }
      }

      const others = own.filter((p) => p.id !== demoRecord?.id);
      for (let offset = -PAST_DAYS; offset <= FUTURE_DAYS; offset++) {
        const date = addDays(today, offset);
        if (weekdayOf(date) > 5) continue;
        const visits = random.int(2, 5);
        for (let v = 0; v < visits; v++) {
          const duration = random.pick([30, 30, 30, 45, 60] as const);
          const time = random.pick(APPOINTMENT_TIMES);
          if (!fits(date, time, duration)) continue;
          const start = occurrence(date, time, duration, zone).startsAt;
          const past = start < now;
          const roll = random.next();
          const status: AppointmentStatus = past
            ? roll < 0.8
              ? 'completed'
              : roll < 0.9
                ? 'no-show'
                : 'cancelled'
            : roll < 0.5
              ? 'confirmed'
              : roll < 0.9
                ? 'scheduled'
                : 'pending';
          add(random.pick(others).id, date, time, duration, {
            video: random.next() < 0.35,
            status,
            reason: random.pick(REASONS),
          });
        }
      }
    }
    if (rows.length === 0) return;
    await insertAppointments(tx, rows, keyring);
    await actorScope({ ...SYSTEM_ACTOR, userAgent: 'demo seed' }, null).audit(tx, 'APPOINTMENT_CREATE', {
      count: rows.length,
      reason: 'demo schedule',
    });
  });
}
