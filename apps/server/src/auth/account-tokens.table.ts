import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accessRequests } from '../access-requests/access-requests.table.ts';
import { users } from './auth.table.ts';

/**
 * Single-use links and codes that set a password: invitations (72 hours) and password resets (15 minutes).
 * Only SHA-256 hashes of the link tokens and an HMAC of the reset code are stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    codeHash: text('code_hash'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Set when a newer token of the same kind replaced this one, or too many wrong codes were tried. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    accessRequestId: uuid('access_request_id').references(() => accessRequests.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('account_tokens_kind_check', sql`${t.kind} in ('invitation', 'password_reset')`),
    index('account_tokens_user_idx').on(t.userId, t.kind, t.createdAt),
  ],
);
