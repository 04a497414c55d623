import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, encryptedCheck } from '../db/columns.ts';
import { fileIsKept, sealedBlobColumns } from '../blobs/blob-columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * A patient's intake packet (issue 28, decision 067): one per patient. Every section's answers are one JSON
 * document, encrypted with the data keys; the status, the step to come back to and the dates stay plain so the
 * chart and the calendar can ask for them in SQL. Accepted, it is the patient's reported history.
 */
export const intakes = pgTable(
  'intakes',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** in-progress, submitted or accepted (no row: not started). */
    status: text('status').notNull(),
    /** The answers of every section saved so far, as JSON (encrypted). */
    answers: text('answers').notNull(),
    /** The step the patient comes back to. */
    currentSection: text('current_section').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by').references(() => users.id),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    returnedBy: uuid('returned_by').references(() => users.id),
    /** Why the provider sent it back (encrypted). */
    returnReason: text('return_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('intakes_patient_idx').on(t.patientId),
    check('intakes_status_check', sql`${t.status} in ('in-progress', 'submitted', 'accepted')`),
    check(
      'intakes_accepted_check',
      sql`(${t.status} = 'accepted') = (${t.acceptedAt} IS NOT NULL AND ${t.acceptedBy} IS NOT NULL)`,
    ),
    encryptedCheck('intakes', t.answers),
    encryptedCheck('intakes', t.returnReason),
  ],
);

/**
 * The photos of the insurance card's front and back, one per side per patient (a new upload replaces it). The
 * bytes are in the blob store, sealed per file (decision 070), as message attachments are; rows from before it keep
 * them sealed in `data` until they are moved.
 */
export const intakeCardPhotos = pgTable(
  'intake_card_photos',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    side: text('side').notNull(),
    mediaType: text('media_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data'),
    ...sealedBlobColumns(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('intake_card_photos_file_check', fileIsKept(t)),
    uniqueIndex('intake_card_photos_side_idx').on(t.patientId, t.side),
    index('intake_card_photos_patient_idx').on(t.patientId),
    check('intake_card_photos_side_check', sql`${t.side} in ('front', 'back')`),
  ],
);
