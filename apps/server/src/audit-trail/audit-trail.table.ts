import { sql } from 'drizzle-orm';
import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.table.ts';

/**
 * API tokens an administrator creates for a log collector (decision 034): shown once, stored as a SHA-256 hash
 * (a token is 32 random bytes, so no salt or slow hash is needed), with scopes, an expiry and a revocation.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The token's last four characters, so a person can tell which token a collector holds. */
    tokenHint: text('token_hint').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [check('api_tokens_revoked_check', sql`(${t.revokedAt} IS NULL) = (${t.revokedBy} IS NULL)`)],
);
