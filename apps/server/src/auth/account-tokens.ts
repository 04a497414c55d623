import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { PASSWORD_RESET_CODE_LENGTH } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { accountTokens } from './account-tokens.table.ts';

export type AccountTokenKind = 'invitation' | 'password_reset';
export type AccountTokenRow = typeof accountTokens.$inferSelect;
export type AccountTokenState = 'valid' | 'expired' | 'used' | 'revoked';

/** 256 random bits, URL-safe: what an e-mailed link carries. Only its SHA-256 is stored. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A code of PASSWORD_RESET_CODE_LENGTH digits, uniformly random. */
export function newCode(): string {
  return randomInt(0, 10 ** PASSWORD_RESET_CODE_LENGTH)
    .toString()
    .padStart(PASSWORD_RESET_CODE_LENGTH, '0');
}

/** A short code is guessable offline from a plain hash, so it is keyed with the server secret (and the token's id). */
export function hashCode(secret: string, tokenId: string, code: string): string {
  return createHmac('sha256', secret).update(`account-token-code:${tokenId}:${code}`).digest('hex');
}

export function codeMatches(secret: string, row: AccountTokenRow, code: string): boolean {
  if (!row.codeHash) return false;
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(hashCode(secret, row.id, code), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function tokenState(row: AccountTokenRow, now: Date = new Date()): AccountTokenState {
  if (row.usedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'valid';
}

/**
 * Issues a new token (and code) of a kind for an account, revoking the account's earlier unused ones of that
 * kind: only the newest link works. Answers the plain token and code, which exist nowhere else, and how many
 * earlier tokens stopped working.
 */
export async function issueAccountToken(
  tx: Executor,
  options: {
    kind: AccountTokenKind;
    userId: string;
    validMs: number;
    withCode: boolean;
    secret: string;
    accessRequestId?: string | null;
  },
): Promise<{ id: string; token: string; code: string | null; expiresAt: Date; replaced: number }> {
  const replaced = await revokeAccountTokens(tx, options.userId, options.kind);
  const id = crypto.randomUUID();
  const token = newLinkToken();
  const code = options.withCode ? newCode() : null;
  const expiresAt = new Date(Date.now() + options.validMs);
  await tx.insert(accountTokens).values({
    id,
    kind: options.kind,
    userId: options.userId,
    tokenHash: hashLinkToken(token),
    codeHash: code ? hashCode(options.secret, id, code) : null,
    expiresAt,
    accessRequestId: options.accessRequestId ?? null,
  });
  return { id, token, code, expiresAt, replaced };
}

/** Revokes the account's unused tokens of a kind; answers how many there were. */
export async function revokeAccountTokens(tx: Executor, userId: string, kind: AccountTokenKind): Promise<number> {
  const revoked = await tx
    .update(accountTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        isNull(accountTokens.revokedAt),
      ),
    )
    .returning({ id: accountTokens.id });
  return revoked.length;
}

/** The token a link carries, locked for the rest of the transaction so it cannot be used twice at once. */
export async function findTokenByLink(
  tx: Executor,
  kind: AccountTokenKind,
  token: string,
  options: { lock: boolean },
): Promise<AccountTokenRow | undefined> {
  const query = tx
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.kind, kind), eq(accountTokens.tokenHash, hashLinkToken(token))));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The account's newest token of a kind that is neither used nor revoked, locked. */
export async function findLatestOpenToken(
  tx: Executor,
  kind: AccountTokenKind,
  userId: string,
): Promise<AccountTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.kind, kind),
        eq(accountTokens.userId, userId),
        isNull(accountTokens.usedAt),
        isNull(accountTokens.revokedAt),
      ),
    )
    .orderBy(desc(accountTokens.createdAt))
    .limit(1)
    .for('update');
  return row;
}

export async function markTokenUsed(tx: Executor, id: string): Promise<void> {
  await tx.update(accountTokens).set({ usedAt: new Date() }).where(eq(accountTokens.id, id));
}

/** Counts a wrong code; at the limit the token stops working. Answers the new count. */
export async function recordWrongCode(tx: Executor, id: string, maxAttempts: number): Promise<number> {
  const [row] = await tx
    .update(accountTokens)
    .set({
      failedAttempts: sql`${accountTokens.failedAttempts} + 1`,
      revokedAt: sql`CASE WHEN ${accountTokens.failedAttempts} + 1 >= ${maxAttempts} THEN now() ELSE ${accountTokens.revokedAt} END`,
    })
    .where(eq(accountTokens.id, id))
    .returning({ failedAttempts: accountTokens.failedAttempts });
  return row?.failedAttempts ?? maxAttempts;
}
