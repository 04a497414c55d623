import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/client.ts';
import { DEADLOCK_DETECTED, postgresErrorOf, transactionWithRetry } from '../src/db/retry.ts';
import { createTestDatabase } from './helpers.ts';
import { afterFile } from './file-cleanup.ts';

describe('transactionWithRetry', () => {
  it('runs a transaction PostgreSQL aborted to break a deadlock again, so both sides of it commit', async () => {
    const handle = connectDatabase(await createTestDatabase(), { max: 4 });
    afterFile(() => handle.close());
    const { db } = handle;
    await db.execute(sql`CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)`);
    await db.execute(sql`INSERT INTO counters VALUES (1, 0), (2, 0)`);

    // Each side locks one row, waits until the other holds its row, then asks for the other's: a real deadlock.
    // Only the first attempt of each side waits, so the retry of the aborted side goes straight through.
    const held: Record<'a' | 'b', PromiseWithResolvers<void>> = {
      a: Promise.withResolvers(),
      b: Promise.withResolvers(),
    };
    const attempts = { a: 0, b: 0 };
    const errors: unknown[] = [];
    const side = (me: 'a' | 'b', first: number, second: number, other: 'a' | 'b') =>
      transactionWithRetry(
        db,
        async (tx) => {
          attempts[me] += 1;
          try {
            await tx.execute(sql`UPDATE counters SET n = n + 1 WHERE id = ${first}`);
            if (attempts[me] === 1) {
              held[me].resolve();
              await held[other].promise;
            }
            await tx.execute(sql`UPDATE counters SET n = n + 1 WHERE id = ${second}`);
          } catch (error) {
            errors.push(error);
            throw error;
          }
        },
        { attempts: 10 },
      );
    await Promise.all([side('a', 1, 2, 'b'), side('b', 2, 1, 'a')]);

    // At least one side was aborted, only ever for the deadlock, and each abort was followed by another attempt
    // (an aborted side's retry can meet the other side again before it commits: hence more than one attempt).
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((e) => postgresErrorOf(e)?.code)).toEqual(errors.map(() => DEADLOCK_DETECTED));
    expect(attempts.a + attempts.b).toBe(2 + errors.length);
    const rows = await db.execute<{ id: number; n: number }>(sql`SELECT id, n FROM counters ORDER BY id`);
    expect(rows.rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('gives up after the attempts it was given, and never retries another error', async () => {
    const handle = connectDatabase(await createTestDatabase(), { max: 2 });
    afterFile(() => handle.close());
    let runs = 0;
    const failing = transactionWithRetry(handle.db, async (tx) => {
      runs += 1;
      await tx.execute(sql`SELECT 1 / 0`);
    });
    await expect(failing).rejects.toSatisfy((e: unknown) => postgresErrorOf(e)?.code === '22012');
    expect(runs).toBe(1);
  });
});
