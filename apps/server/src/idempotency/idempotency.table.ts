import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.table.ts';

/**
 * The Idempotency-Key of a create mutation (decision 044): written with what it created, in one transaction, so a
 * retry answers the first result. Holds no health data: the input only as an HMAC, the result as its record's id.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    inputHash: text('input_hash').notNull(),
    resultId: uuid('result_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    check('idempotency_keys_key_length_check', sql`length(${t.key}) BETWEEN 1 AND 255`),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);
