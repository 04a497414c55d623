import { createHmac } from 'node:crypto';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { ERROR_CODES, IDEMPOTENCY_KEY_LIFETIME_HOURS } from '@telehealth/shared';
import type { Caller } from '../access/caller.ts';
import type { IdempotentRequest } from './idempotent-request.ts';
import type { Database, Executor } from '../db/client.ts';
import { idempotencyKeys } from './idempotency.table.ts';
import { AppError } from '../errors.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';

/*
 * Retried writes (decision 044). A create mutation sent with an Idempotency-Key records the key in the transaction
 * that writes the record: a crash before the commit leaves neither, a crash after it leaves both, so a retry with
 * the same key finds the first result and answers it (re-read through the normal, authorised and audited path)
 * instead of writing again.
 */

export type { IdempotentRequest };

/** What a used key answers: the operation and input it was first used with, and the record that created. */
export interface IdempotencyRecord {
  operation: string;
  inputHash: string;
  resultId: string;
}

/** Any constant shared by every instance: with the account and key's hash, one writer per key at a time. */
const IDEMPOTENCY_LOCK_KEY = ADVISORY_LOCK_CLASSES.idempotencyKey;

const LIFETIME = sql.raw(`interval '${IDEMPOTENCY_KEY_LIFETIME_HOURS} hours'`);

/** Thrown inside the write's transaction when the key was recorded meanwhile: nothing is written, the first answers. */
export class IdempotencyKeyTaken extends Error {
  readonly record: IdempotencyRecord;
  constructor(record: IdempotencyRecord) {
    super('the Idempotency-Key was recorded by an earlier request');
    this.name = 'IdempotencyKeyTaken';
    this.record = record;
  }
}

export const idempotencyKeyInFlight = () =>
  new AppError(ERROR_CODES.idempotencyKeyInFlight, 'messages.idempotencyKeyInFlight');
export const idempotencyKeyReused = () =>
  new AppError(ERROR_CODES.idempotencyKeyReused, 'messages.idempotencyKeyReused');

/** The input's fingerprint and the lookups; the recording itself is `recordIdempotencyKey`, in the caller's write. */
export class IdempotencyKeys {
  readonly #db: Database;
  readonly #hmacKey: Buffer;

  constructor(options: { db: Database; secret: string }) {
    this.#db = options.db;
    this.#hmacKey = createHmac('sha256', options.secret).update('idempotency-key').digest();
  }

  request(operation: string, args: unknown, key: string): IdempotentRequest {
    const inputHash = createHmac('sha256', this.#hmacKey)
      .update(`${operation}\n${canonicalJson(args)}`)
      .digest('base64url');
    return { key, operation, inputHash };
  }

  /** The live record of an account's key, if it was used in the last 24 hours. */
  find(accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
    return findIdempotencyKey(this.#db, accountId, key);
  }
}

async function findIdempotencyKey(
  executor: Executor,
  accountId: string,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  const [row] = await executor
    .select({
      operation: idempotencyKeys.operation,
      inputHash: idempotencyKeys.inputHash,
      resultId: idempotencyKeys.resultId,
    })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.accountId, accountId),
        eq(idempotencyKeys.key, key),
        gt(idempotencyKeys.createdAt, sql`now() - ${LIFETIME}`),
      ),
    );
  return row;
}

/**
 * Records the caller's Idempotency-Key (if it sent one) with the record its write created, inside that write's
 * transaction; call it last, once the id is known. A concurrent request with the key that has not committed yet
 * holds the key's lock: this one is refused as in flight (nothing of it is written). One that committed meanwhile
 * is found: IdempotencyKeyTaken rolls this write back and the GraphQL layer answers the first. The primary key on
 * (account, key) has the last word.
 */
export async function recordIdempotencyKey(tx: Executor, caller: Caller, resultId: string): Promise<void> {
  const request = caller.idempotency;
  if (!request) return;
  const accountId = caller.user.id;
  const locked = await tx.execute<{ locked: boolean }>(
    sql`SELECT pg_try_advisory_xact_lock(${IDEMPOTENCY_LOCK_KEY}, hashtext(${`${accountId}:${request.key}`})) AS locked`,
  );
  if (!locked.rows[0]?.locked) throw idempotencyKeyInFlight();
  const existing = await findIdempotencyKey(tx, accountId, request.key);
  if (existing) throw new IdempotencyKeyTaken(existing);
  // A row past its day that the prune job has not removed yet no longer counts.
  await tx
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, request.key)));
  await tx.insert(idempotencyKeys).values({
    accountId,
    key: request.key,
    operation: request.operation,
    inputHash: request.inputHash,
    resultId,
  });
}

/** Deletes the keys past their day (the idempotency-keys:prune job). Answers how many. */
export async function deleteExpiredIdempotencyKeys(db: Database): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, sql`now() - ${LIFETIME}`))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/** JSON with every object's keys sorted and undefined left out: the same input gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}
