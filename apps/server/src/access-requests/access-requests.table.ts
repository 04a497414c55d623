import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck, timestamps } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';

/**
 * Requests for access from the public forms. `form` holds every field of the form as validated (JSON, encrypted
 * like the decline reason); for a patient it is health information: it is never logged, never mailed, and read
 * only by administrators (audited).
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('new'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    /** The language of the e-mails this request causes (and of the account it becomes). */
    language: text('language').notNull().default('en'),
    form: text('form').notNull(),
    declineReason: text('decline_reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The account approval created. */
    accountId: uuid('account_id').references(() => users.id),
    /** HMAC of the client address with the server secret: ties a flood together without keeping the address. */
    clientIpHash: text('client_ip_hash'),
    ...timestamps,
  },
  (t) => [
    check('access_requests_kind_check', sql`${t.kind} in ('provider', 'patient')`),
    check('access_requests_status_check', sql`${t.status} in ('new', 'approved', 'declined')`),
    check('access_requests_language_check', sql`${t.language} in ('en', 'es')`),
    index('access_requests_order_idx').on(t.createdAt.desc(), t.id.desc()),
    index('access_requests_status_order_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    encryptedCheck('access_requests', t.form),
    encryptedCheck('access_requests', t.declineReason),
  ],
);
