import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';

/**
 * Stored values that a later text rule would refuse (decision 022), found at start and made inert in place. The
 * value as it was is kept here, encrypted, so nothing a person typed is lost; administrators see which record
 * and field, never the value, and mark each one resolved once the record has been checked.
 */
export const storedTextFindings = pgTable(
  'stored_text_findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tableName: text('table_name').notNull(),
    recordId: uuid('record_id').notNull(),
    field: text('field').notNull(),
    problem: text('problem').notNull(),
    originalValue: text('original_value').notNull(),
    ruleVersion: integer('rule_version').notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id),
  },
  (t) => [
    check('stored_text_findings_problem_check', sql`${t.problem} in ('invalidCharacters', 'markup', 'urlScheme')`),
    index('stored_text_findings_order_idx').on(t.foundAt.desc(), t.id.desc()),
    encryptedCheck('stored_text_findings', t.originalValue),
  ],
);

/** Each version of the text rule is checked against the stored data once: this records that it was. */
export const textRuleReviews = pgTable('text_rule_reviews', {
  ruleVersion: integer('rule_version').primaryKey(),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull().defaultNow(),
  findings: integer('findings').notNull(),
});
