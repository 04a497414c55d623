import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { notes } from '../notes/notes.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * A signed note a provider shared with its patient (the portal's My Records). Kept beside the note, whose lock
 * trigger refuses changes to a signed note; a trigger refuses a psychotherapy note, an unsigned one, or another
 * patient. Stopping sharing deletes the row (audited).
 */
export const noteShares = pgTable(
  'note_shares',
  {
    noteId: uuid('note_id')
      .primaryKey()
      .references(() => notes.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    sharedBy: uuid('shared_by')
      .notNull()
      .references(() => users.id),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_shares_patient_idx').on(t.patientId, t.sharedAt)],
);

/**
 * A patient's request to correct their record (45 CFR 164.526): the field and the request (encrypted), answered by
 * the care team with accepted or declined (a reason, encrypted, required for a decline).
 */
export const recordCorrections = pgTable(
  'record_corrections',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    field: text('field').notNull(),
    request: text('request').notNull(),
    status: text('status').notNull().default('pending'),
    response: text('response'),
    answeredBy: uuid('answered_by').references(() => users.id),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('record_corrections_patient_idx').on(t.patientId, t.createdAt),
    check('record_corrections_status_check', sql`${t.status} in ('pending', 'accepted', 'declined')`),
    check(
      'record_corrections_answer_check',
      sql`(${t.status} = 'pending') = (${t.answeredAt} IS NULL) AND (${t.answeredAt} IS NULL) = (${t.answeredBy} IS NULL) AND (${t.status} <> 'declined' OR ${t.response} IS NOT NULL)`,
    ),
    encryptedCheck('record_corrections', t.request),
    encryptedCheck('record_corrections', t.response),
  ],
);
