import { createHmac } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { ERROR_CODES, minutesToWait } from '@telehealth/shared';
import type { Database, Executor } from '../db/client.ts';
import { rateLimitHits } from './rate-limit.table.ts';
import { AppError } from '../errors.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';

export interface RateLimit {
  maxAttempts: number;
  windowMs: number;
}

/** Any constant shared by every instance: with the key's hash, serialises the count-then-insert of one key. */
const RATE_LIMIT_LOCK_KEY = ADVISORY_LOCK_CLASSES.rateLimit;
/** Hits older than the longest window are of no use. */
const KEEP_HITS_MS = 24 * 60 * 60 * 1000;

/**
 * Sliding-window rate limits kept in PostgreSQL, so every instance of the server counts the same hits. Keys
 * (client addresses, e-mail addresses) are stored only as an HMAC with the server secret.
 */
export class RateLimiter {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('rate-limit').digest();
  }

  /** The stored form of a key: not reversible without the server secret. */
  hash(value: string): string {
    return createHmac('sha256', this.#key).update(value).digest('base64url');
  }

  /**
   * Counts one attempt unless the limit is already reached. Answers 0 when the attempt is allowed, else how
   * many milliseconds until it would be.
   */
  consume(executor: Executor, bucket: string, value: string, limit: RateLimit): Promise<number> {
    return this.#inTransaction(executor, async (tx) => {
      const wait = await this.#waitMs(tx, bucket, this.hash(value), limit, true);
      if (wait === 0) await tx.insert(rateLimitHits).values({ bucket, keyHash: this.hash(value) });
      return wait;
    });
  }

  /** Like consume, without counting: for limits on failures, which are recorded only when they happen. */
  check(executor: Executor, bucket: string, value: string, limit: RateLimit): Promise<number> {
    return this.#inTransaction(executor, (tx) => this.#waitMs(tx, bucket, this.hash(value), limit, false));
  }

  async record(executor: Executor, bucket: string, value: string): Promise<void> {
    await executor.insert(rateLimitHits).values({ bucket, keyHash: this.hash(value) });
  }

  async prune(db: Database): Promise<void> {
    await db.delete(rateLimitHits).where(lt(rateLimitHits.hitAt, new Date(Date.now() - KEEP_HITS_MS)));
  }

  async #waitMs(tx: Executor, bucket: string, keyHash: string, limit: RateLimit, lock: boolean): Promise<number> {
    if (lock)
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${RATE_LIMIT_LOCK_KEY}, hashtext(${`${bucket}:${keyHash}`}))`);
    const windowSeconds = limit.windowMs / 1000;
    // The hit whose expiry brings the count below the limit: the limit-th most recent one in the window.
    const result = await tx.execute<{ wait_ms: number }>(sql`
      SELECT greatest(0, extract(epoch FROM (hit_at + make_interval(secs => ${windowSeconds}) - now())) * 1000)::float8 AS wait_ms
      FROM ${rateLimitHits}
      WHERE ${and(eq(rateLimitHits.bucket, bucket), eq(rateLimitHits.keyHash, keyHash), gt(rateLimitHits.hitAt, sql`now() - make_interval(secs => ${windowSeconds})`))}
      ORDER BY hit_at DESC
      OFFSET ${limit.maxAttempts - 1} LIMIT 1`);
    const row = result.rows[0];
    return row ? Math.max(1, Math.ceil(Number(row.wait_ms))) : 0;
  }

  #inTransaction<T>(executor: Executor, run: (tx: Executor) => Promise<T>): Promise<T> {
    return executor instanceof PgTransaction ? run(executor) : executor.transaction(run);
  }
}

/** The error for a refused call: TOO_MANY_REQUESTS, with the wait in extensions.retryAfterSeconds. */
export function rateLimited(
  retryAfterMs: number,
  messageId: 'messages.tooManyRequests' | 'messages.accountLocked' = 'messages.tooManyRequests',
): AppError {
  return new AppError(
    ERROR_CODES.tooManyRequests,
    messageId,
    { count: minutesToWait(retryAfterMs) },
    { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
  );
}
