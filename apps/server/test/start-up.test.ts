import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEMO_ACCOUNTS } from '@telehealth/shared';
import { createTestDatabase, openTestRuntime } from './helpers.ts';

/** Two start-ups on busy cores, each migrating, installing the queue and seeding the demo practice. */
const START_UP_TIMEOUT_MS = 120_000;

describe('start-up', () => {
  it(
    'two instances started together on an empty database in demo mode both come up, and the demo is seeded once',
    async () => {
      const url = await createTestDatabase();
      const [first, second] = await Promise.all([
        openTestRuntime(url, {}, { seedDemo: 'practice' }),
        openTestRuntime(url, {}, { seedDemo: 'practice' }),
      ]);
      const users = await first.database.db.execute<{ email: string; n: number }>(
        sql`SELECT email, count(*)::int AS n FROM users GROUP BY email`,
      );
      const byEmail = (a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email);
      expect(users.rows.sort(byEmail)).toEqual(DEMO_ACCOUNTS.map((a) => ({ email: a.email, n: 1 })).sort(byEmail));
      // The demo practice once (its own count), and each instance's queue on the one schema.
      const patients = await second.database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`);
      expect(patients.rows[0]?.n).toBe(40);
      const sealers = await second.database.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'audit:seal' AND key IS NOT NULL`,
      );
      expect(sealers.rows[0]?.n).toBe(1);
      // Its clinical history once too: one seed entry for its notes, and notes to show for it.
      const history = await second.database.db.execute<{ entries: number; notes: number }>(
        sql`SELECT (SELECT count(*)::int FROM audit_entries WHERE event = 'NOTE_CREATE' AND user_agent = 'demo seed') AS entries,
          (SELECT count(*)::int FROM notes) AS notes`,
      );
      expect(history.rows[0]?.entries).toBe(1);
      expect(history.rows[0]?.notes).toBeGreaterThan(20);
    },
    START_UP_TIMEOUT_MS,
  );
});
