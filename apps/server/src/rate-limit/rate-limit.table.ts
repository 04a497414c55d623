import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per counted attempt, keyed by an HMAC of the address or e-mail; pruned after a day. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    keyHash: text('key_hash').notNull(),
    hitAt: timestamp('hit_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hits_lookup_idx').on(t.bucket, t.keyHash, t.hitAt)],
);
