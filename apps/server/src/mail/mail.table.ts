import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every e-mail the server writes, in the same transaction as the change that causes it. Without SMTP_URL the
 * mail is kept here (status kept); with it, a deliverer sends queued mail and records the outcome, and the
 * body of a sent mail is erased (it may hold a link that sets a password).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** An appointment's iCalendar invitation (REQUEST or CANCEL), sent as the text/calendar part; erased once sent. */
    calendarMethod: text('calendar_method'),
    calendarIcs: text('calendar_ics'),
  },
  (t) => [
    check('mail_outbox_status_check', sql`${t.status} in ('queued', 'sending', 'sent', 'failed', 'kept')`),
    index('mail_outbox_order_idx').on(t.createdAt.desc(), t.id.desc()),
    index('mail_outbox_pending_idx')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('queued', 'sending', 'failed')`),
  ],
);
