import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

const STATUS_CHECK = sql`in ('active', 'in-remission', 'resolved', 'rule-out')`;

/**
 * A patient's problem list (issue 27, decision 062): one entry per ICD-10-CM code. The code and status stay plain
 * so the outcome reports group by them in SQL; the title (the list's official one, or the provider's for a code
 * off the list) and the comment are encrypted. At most one entry per patient is the primary diagnosis.
 */
export const diagnoses = pgTable(
  'diagnoses',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    code: text('code').notNull(),
    title: text('title').notNull(),
    /** Whether the code was in the product's code list when it was added (off the list: shown with a warning). */
    listed: boolean('listed').notNull(),
    status: text('status').notNull(),
    onsetDate: date('onset_date', { mode: 'string' }),
    primary: boolean('is_primary').notNull().default(false),
    comment: text('comment'),
    /** The entry's version: 1 when added, one more with each change (each kept in diagnosis_revisions). */
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by')
      .notNull()
      .references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('diagnoses_patient_code_idx').on(t.patientId, t.code),
    uniqueIndex('diagnoses_one_primary_idx')
      .on(t.patientId)
      .where(sql`${t.primary}`),
    check('diagnoses_status_check', sql`${t.status} ${STATUS_CHECK}`),
    encryptedCheck('diagnoses', t.title),
    encryptedCheck('diagnoses', t.comment),
  ],
);

/** Every version of a problem-list entry as it was written: who changed what, and when (the history kept). */
export const diagnosisRevisions = pgTable(
  'diagnosis_revisions',
  {
    id: uuid('id').primaryKey(),
    diagnosisId: uuid('diagnosis_id')
      .notNull()
      .references(() => diagnoses.id),
    version: integer('version').notNull(),
    status: text('status').notNull(),
    onsetDate: date('onset_date', { mode: 'string' }),
    primary: boolean('is_primary').notNull(),
    comment: text('comment'),
    changedBy: uuid('changed_by')
      .notNull()
      .references(() => users.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('diagnosis_revisions_version_idx').on(t.diagnosisId, t.version),
    index('diagnosis_revisions_diagnosis_idx').on(t.diagnosisId),
    check('diagnosis_revisions_status_check', sql`${t.status} ${STATUS_CHECK}`),
    encryptedCheck('diagnosis_revisions', t.comment),
  ],
);
