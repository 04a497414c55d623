import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { actorScope } from '../access/scope.ts';
import { providers } from '../providers/providers.table.ts';
import { createRandom, generatePatient } from '../demo/practice-data.ts';
import { countPatientRows, insertPatients } from '../patients/patients.repository.ts';
import { seedSchedule } from '../demo/seed-schedule.ts';
import { withCliRuntime } from './cli-runtime.ts';

const USAGE = `Usage: npm run seed -- --patients COUNT   (adds COUNT invented patients, spread over the providers)
       npm run seed -- --appointments COUNT --providers P   (adds P providers, their patients and COUNT appointments)`;
const BATCH = 2000;

const { values } = parseArgs({
  options: { patients: { type: 'string' }, appointments: { type: 'string' }, providers: { type: 'string' } },
});
const count = Number.parseInt(values.patients ?? '0', 10);
const appointmentCount = Number.parseInt(values.appointments ?? '0', 10);
const providerCount = Number.parseInt(values.providers ?? '50', 10);
const valid = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;
if (
  !valid(count, 5_000_000) ||
  !valid(appointmentCount, 5_000_000) ||
  !valid(providerCount, 1000) ||
  count + appointmentCount === 0 ||
  (appointmentCount > 0 && providerCount < 1)
) {
  console.error(USAGE);
  process.exit(2);
}

await withCliRuntime(async ({ database, keyring, config }) => {
  const db = database.db;
  if (appointmentCount > 0) {
    const started = Date.now();
    const ids = await seedSchedule(db, keyring, {
      providers: providerCount,
      appointments: appointmentCount,
      zone: config.settings.current().timeZone,
      actor: { sessionId: null, userId: 'cli', userRole: 'system', clientIp: null, userAgent: 'seed' },
      progress: (n) => process.stdout.write(`\rSeeded ${n} of ${appointmentCount} appointments`),
    });
    console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s, over ${ids.length} new provider(s).`);
    console.log(`first-provider ${ids[0]}`);
    if (count === 0) return 0;
  }
  const owners = (await db.select({ id: providers.id }).from(providers)).map((r) => r.id);
  const existing = await countPatientRows(db);
  const random = createRandom(existing + 1);
  const actor = { sessionId: null, userId: 'cli', userRole: 'system', clientIp: null, userAgent: 'seed' };
  const started = Date.now();
  for (let done = 0; done < count; done += BATCH) {
    const size = Math.min(BATCH, count - done);
    const rows = Array.from({ length: size }, (_, i) => ({
      ...generatePatient(random, existing + done + i + 1),
      ownerId: owners.length > 0 ? owners[(done + i) % owners.length]! : null,
    }));
    await db.transaction(async (tx) => {
      const patientIds = await insertPatients(tx, rows, keyring);
      await actorScope(actor, null).audit(tx, 'PATIENT_CREATE', { patientIds, reason: 'seed' });
    });
    process.stdout.write(`\rSeeded ${done + size} of ${count} patients`);
  }
  await db.execute(sql`ANALYZE patients`);
  console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s, over ${owners.length} provider(s).`);
  return 0;
});
