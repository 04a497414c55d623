import { sql } from 'drizzle-orm';
import { DEMO_ACCOUNTS } from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import { countPatientRows, insertPatients } from '../patients/patients.repository.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { createRandom, generatePatient } from './practice-data.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';

const DEMO_PATIENT_COUNT = 40;

/**
 * A believable practice for demo mode: about 40 patients spread over the demo providers (whose provider records
 * came with their accounts) and the demo patient account linked to its own record. Runs once (when no patient
 * exists).
 */
export async function ensureDemoPractice(db: Database, keyring: Keyring): Promise<void> {
  await db.transaction(async (tx) => {
    // Two servers starting at once on one database must not both seed.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS.demoPractice})`);
    const accounts = new Map<string, string>();
    for (const account of DEMO_ACCOUNTS) {
      const row = await findUserByEmail(tx, account.email);
      if (row) accounts.set(account.email, row.id);
    }

    if ((await countPatientRows(tx)) > 0) return;
    const owners = ['provider@demo.test', 'provider2@demo.test']
      .map((e) => accounts.get(e))
      .filter((id): id is string => !!id);
    const random = createRandom(2026);
    const rows = Array.from({ length: DEMO_PATIENT_COUNT }, (_, i) => ({
      ...generatePatient(random, i + 1),
      ownerId: owners[i % owners.length] ?? null,
    }));
    const patientAccount = accounts.get('patient@demo.test');
    const demoPatient = DEMO_ACCOUNTS.find((a) => a.email === 'patient@demo.test');
    if (patientAccount && demoPatient && rows[0]) {
      rows[0] = {
        ...rows[0],
        firstName: demoPatient.firstName,
        lastName: demoPatient.lastName,
        email: demoPatient.email,
        isActive: true,
      };
    }
    const patientIds = await insertPatients(
      tx,
      rows.map((row, i) => ({ ...row, accountId: i === 0 ? (patientAccount ?? null) : null })),
      keyring,
    );
    const actor = { sessionId: null, userId: 'system', userRole: 'system', clientIp: null, userAgent: 'demo seed' };
    await actorScope(actor, null).audit(tx, 'PATIENT_CREATE', { patientIds, reason: 'demo practice' });
  });
}
