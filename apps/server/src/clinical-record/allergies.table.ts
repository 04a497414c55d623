import { sql } from 'drizzle-orm';
import { check, date, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * A patient's structured allergies (issue 27, decision 062), beside the free-text `patients.allergies`. Severity,
 * category and status stay plain so reports and the chart's warnings can use them in SQL; the substance, the
 * reaction and the reason for a removal are encrypted. A removal is kept on the row (who, when, why): the entry
 * stays in the record, marked removed. One active entry per substance is checked by the service (the substance is
 * encrypted, so no index can compare it).
 */
export const allergies = pgTable(
  'allergies',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    substance: text('substance').notNull(),
    reaction: text('reaction'),
    severity: text('severity').notNull(),
    category: text('category'),
    notedDate: date('noted_date', { mode: 'string' }),
    status: text('status').notNull().default('active'),
    /** `clinician` (added by a provider) or `patient` (reported in an accepted intake, decision 067). */
    source: text('source').notNull().default('clinician'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    removedBy: uuid('removed_by').references(() => users.id),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removalReason: text('removal_reason'),
  },
  (t) => [
    index('allergies_patient_idx').on(t.patientId),
    check('allergies_severity_check', sql`${t.severity} in ('mild', 'moderate', 'severe', 'unknown')`),
    check(
      'allergies_category_check',
      sql`${t.category} IS NULL OR ${t.category} in ('medication', 'food', 'environment', 'other')`,
    ),
    check('allergies_status_check', sql`${t.status} in ('active', 'removed')`),
    check('allergies_source_check', sql`${t.source} in ('clinician', 'patient')`),
    // A removed entry says who removed it and when; an active one has no removal.
    check(
      'allergies_removal_check',
      sql`(${t.status} = 'removed') = (${t.removedBy} IS NOT NULL AND ${t.removedAt} IS NOT NULL)`,
    ),
    encryptedCheck('allergies', t.substance),
    encryptedCheck('allergies', t.reaction),
    encryptedCheck('allergies', t.removalReason),
  ],
);
