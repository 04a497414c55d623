import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import { patients, providers } from '../db/schema.ts';
import { createRandom, generatePatient } from '../demo/practice-data.ts';
import { insertPatients } from '../patients/patients.repository.ts';
import { withCliRuntime } from './cli-runtime.ts';

const USAGE = 'Usage: npm run seed -- --patients COUNT   (adds COUNT invented patients, spread over the providers)';
const BATCH = 2000;

const { values } = parseArgs({ options: { patients: { type: 'string' } } });
const count = Number.parseInt(values.patients ?? '', 10);
if (!Number.isInteger(count) || count < 1 || count > 5_000_000) {
  console.error(USAGE);
  process.exit(2);
}

await withCliRuntime(async ({ database, keyring }) => {
  const db = database.db;
  const owners = (await db.select({ id: providers.id }).from(providers)).map((r) => r.id);
  const [{ existing } = { existing: 0 }] = await db.select({ existing: sql<number>`count(*)::int` }).from(patients);
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
      await appendAuditEntry(tx, {
        event: 'PATIENT_CREATE',
        level: 'INFO',
        actor,
        details: { patientIds, reason: 'seed' },
      });
    });
    process.stdout.write(`\rSeeded ${done + size} of ${count} patients`);
  }
  await db.execute(sql`ANALYZE patients`);
  console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s, over ${owners.length} provider(s).`);
  return 0;
});
