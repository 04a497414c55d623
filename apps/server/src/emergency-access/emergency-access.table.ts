import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * Emergency access grants (decision 036, migration 0024): a provider opened a patient's record beyond their reach,
 * with a reason (encrypted), from `startedAt` until `endsAt` (or `endedAt`, when they ended it early). An
 * administrator reviews each: outcome and note (encrypted). Rows are never deleted; the review is the only change
 * besides ending early.
 */
export const emergencyAccessGrants = pgTable(
  'emergency_access_grants',
  {
    id: uuid('id').primaryKey(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    reason: text('reason').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewOutcome: text('review_outcome'),
    reviewNote: text('review_note'),
  },
  (t) => [
    index('emergency_access_grants_provider_idx').on(t.providerId, t.endsAt),
    index('emergency_access_grants_started_idx').on(t.startedAt),
    index('emergency_access_grants_awaiting_idx')
      .on(t.startedAt)
      .where(sql`${t.reviewedAt} IS NULL`),
    check('emergency_access_grants_period_check', sql`${t.endsAt} > ${t.startedAt}`),
    check(
      'emergency_access_grants_review_check',
      sql`(${t.reviewedAt} IS NULL) = (${t.reviewedBy} IS NULL) AND (${t.reviewedAt} IS NULL) = (${t.reviewOutcome} IS NULL) AND (${t.reviewOutcome} IS NULL OR ${t.reviewOutcome} in ('appropriate', 'inappropriate'))`,
    ),
    check('emergency_access_grants_reason_encrypted', sql`${t.reason} IS NULL OR ${t.reason} LIKE 'enc:%'`),
    check(
      'emergency_access_grants_review_note_encrypted',
      sql`${t.reviewNote} IS NULL OR ${t.reviewNote} LIKE 'enc:%'`,
    ),
  ],
);

export type EmergencyGrantRow = typeof emergencyAccessGrants.$inferSelect;
