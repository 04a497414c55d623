import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { addDays, APPOINTMENT_TIMES, todayIn } from '@telehealth/shared';
import { insertAppointments, type NewAppointmentRow } from '../appointments/appointments.repository.ts';
import { occurrence, weekdayOf } from '../appointments/schedule.ts';
import { actorScope } from '../access/scope.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import { insertPatients } from '../patients/patients.repository.ts';
import { createRandom, generatePatient } from './practice-data.ts';
import { createAccount } from '../users/accounts.ts';

const BATCH = 2000;
const PATIENTS_PER_PROVIDER = 40;

/**
 * For the benchmark and load tests (`npm run seed -- --appointments N --providers P`): P new providers (accounts
 * without a password, so nobody can sign in to them), 40 patients each, and N appointments spread evenly over
 * them, every 30 minutes of every working day around today, none overlapping. Answers the new providers' ids.
 */
export async function seedSchedule(
  db: Database,
  keyring: Keyring,
  options: { providers: number; appointments: number; zone: string; actor: AuditActor; progress?: (n: number) => void },
): Promise<string[]> {
  const random = createRandom(options.appointments + options.providers);
  const providerIds: string[] = [];
  const patientsOf = new Map<string, string[]>();
  for (let p = 0; p < options.providers; p++) {
    const tag = randomUUID().slice(0, 8);
    // Like every account, through createAccount (decision 060): no password, so nobody can sign in to it.
    const { id } = await db.transaction((tx) =>
      createAccount(
        tx,
        {
          email: `bench.provider.${tag}@example.net`,
          firstName: 'Bench',
          lastName: `Provider ${p + 1}`,
          role: 'provider',
          provider: { specialty: 'Psychiatry' },
        },
        { actor: options.actor, details: { reason: 'seed' } },
      ),
    );
    const rows = Array.from({ length: PATIENTS_PER_PROVIDER }, (_, i) => ({
      ...generatePatient(random, p * PATIENTS_PER_PROVIDER + i + 1),
      ownerId: id,
    }));
    patientsOf.set(id, await insertPatients(db, rows, keyring));
    providerIds.push(id);
  }
  const perProvider = Math.ceil(options.appointments / options.providers);
  const weekdaysNeeded = Math.ceil(perProvider / APPOINTMENT_TIMES.length);
  // Working days centred on today: half before, half after.
  const days: string[] = [];
  let date = addDays(todayIn(options.zone), -Math.ceil((weekdaysNeeded * 7) / 10));
  while (days.length < weekdaysNeeded) {
    if (weekdayOf(date) <= 5) days.push(date);
    date = addDays(date, 1);
  }
  const now = new Date();
  let pending: NewAppointmentRow[] = [];
  let written = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await db.transaction(async (tx) => {
      await insertAppointments(tx, batch, keyring);
      await actorScope(options.actor, null).audit(tx, 'APPOINTMENT_CREATE', { count: batch.length, reason: 'seed' });
    });
    written += batch.length;
    options.progress?.(written);
  };
  for (const providerId of providerIds) {
    const patientIds = patientsOf.get(providerId)!;
    let made = 0;
    for (const day of days) {
      for (const time of APPOINTMENT_TIMES) {
        if (made >= perProvider || written + pending.length >= options.appointments) break;
        const slot = occurrence(day, time, 30, options.zone);
        pending.push({
          patientId: patientIds[made % patientIds.length]!,
          providerId,
          startsAt: slot.startsAt,
          endsAt: slot.endsAt,
          timeZone: options.zone,
          duration: 30,
          appointmentType: random.next() < 0.35 ? 'video' : 'in-person',
          status: slot.startsAt < now ? 'completed' : 'scheduled',
          reason: 'Follow-up',
          invitationSequence: 0,
        });
        made++;
        if (pending.length >= BATCH) await flush();
      }
    }
  }
  await flush();
  // Fresh statistics for every table written: without them the planner drove the calendar query from the
  // patients (estimated at 8 rows, in fact 2,000) and took 25 ms instead of 0.3.
  await db.execute(sql`ANALYZE users, providers, patients, appointments`);
  return providerIds;
}
