import type { Database, Executor } from './client.ts';

/** SQLSTATE of a transaction PostgreSQL aborted to break a deadlock. */
export const DEADLOCK_DETECTED = '40P01';

/** The PostgreSQL error of `error` or of an error it wraps (drizzle wraps the driver's), if any. */
export function postgresErrorOf(error: unknown): (Error & { code: string; constraint?: string }) | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const candidate = e as Error & { code?: unknown; constraint?: string };
    // SQLSTATE codes are five digits or capitals; the driver's own (ECONNRESET, ...) are longer.
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && 'severity' in candidate) {
      return candidate as Error & { code: string; constraint?: string };
    }
  }
  return null;
}

/**
 * Runs `work` in a transaction and runs it again, from the start, when PostgreSQL aborted it to break a
 * deadlock. Two transactions that each insert a row conflicting with the other's under an exclusion
 * constraint wait for each other in the constraint's check, and PostgreSQL aborts one of them with 40P01 rather
 * than 23P01 (measured here: 19 of 190 refused inserts of 20 simultaneous bookings of one slot). By the time the
 * retry runs, the other transaction has ended, so the retry meets its row as an ordinary violation or goes
 * through. `work` must not leave effects outside the transaction before it commits.
 */
export async function transactionWithRetry<T>(
  db: Database,
  work: (tx: Executor) => Promise<T>,
  options: { attempts?: number } = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= attempts || postgresErrorOf(error)?.code !== DEADLOCK_DETECTED) throw error;
    }
  }
}
