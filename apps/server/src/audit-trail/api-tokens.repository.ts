import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { API_TOKEN_PREFIX } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { apiTokens } from './audit-trail.table.ts';
import { userNameOrNullOf } from '../users/users.repository.ts';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export interface ApiTokenView {
  id: string;
  name: string;
  tokenHint: string;
  scopes: string[];
  createdAt: Date;
  createdByName: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** A new token's secret: the prefix and 32 random bytes. */
export function generateApiTokenSecret(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a token: its SHA-256. A token has 256 random bits, so a fast unsalted hash is enough. */
export function hashApiToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export async function insertApiToken(
  executor: Executor,
  values: { name: string; secret: string; scopes: string[]; createdBy: string; expiresAt: Date },
): Promise<ApiTokenRow> {
  const [row] = await executor
    .insert(apiTokens)
    .values({
      name: values.name,
      tokenHash: hashApiToken(values.secret),
      tokenHint: values.secret.slice(-4),
      scopes: values.scopes,
      createdBy: values.createdBy,
      expiresAt: values.expiresAt,
    })
    .returning();
  if (!row) throw new Error('api token insert returned nothing');
  return row;
}

export async function listApiTokens(executor: Executor): Promise<ApiTokenView[]> {
  return executor
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      tokenHint: apiTokens.tokenHint,
      scopes: apiTokens.scopes,
      createdAt: apiTokens.createdAt,
      createdByName: userNameOrNullOf(apiTokens.createdBy),
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .orderBy(desc(apiTokens.createdAt));
}

/** Revokes a token not revoked yet; null when there is no such token or it was revoked already. */
export async function revokeApiToken(executor: Executor, id: string, revokedBy: string): Promise<ApiTokenRow | null> {
  const [row] = await executor
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, revokedBy })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  return row ?? null;
}

export async function findApiTokenById(executor: Executor, id: string): Promise<ApiTokenRow | null> {
  const [row] = await executor.select().from(apiTokens).where(eq(apiTokens.id, id)).limit(1);
  return row ?? null;
}

/** The token a secret opens, whatever its state (the caller checks expiry, revocation and scope). */
export async function findApiTokenBySecret(executor: Executor, secret: string): Promise<ApiTokenRow | null> {
  const [row] = await executor
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashApiToken(secret)))
    .limit(1);
  return row ?? null;
}

export async function touchApiToken(executor: Executor, id: string): Promise<void> {
  await executor
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(apiTokens.id, id));
}
