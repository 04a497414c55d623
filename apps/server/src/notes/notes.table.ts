import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck, timestamps } from '../db/columns.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * Clinical notes (decision 027). Title, content and tags are encrypted with the data keys; `searchTokens` is a
 * blind index (keyed HMACs of the words and their beginnings) so that search runs in the database without the
 * text. A note is a draft until its author signs it (`signedAt`); a trigger refuses any change to a signed note
 * except an unlock (signed → draft, version + 1), and any delete of one.
 */
export const notes = pgTable(
  'notes',
  {
    id: uuid('id').primaryKey(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    patientId: uuid('patient_id').references(() => patients.id),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    templateId: uuid('template_id').references(() => noteTemplates.id),
    title: text('title').notNull(),
    content: text('content').notNull(),
    tags: text('tags').notNull(),
    category: text('category').notNull().default('general'),
    priority: text('priority').notNull().default('medium'),
    /** A psychotherapy note (the specification's "private"): readable by its author only. */
    isPrivate: boolean('is_private').notNull().default(false),
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which search key made `searchTokens` (a new key re-indexes at start). */
    searchKeyId: text('search_key_id').notNull(),
    version: integer('version').notNull().default(1),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signedBy: uuid('signed_by').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('notes_author_updated_idx').on(t.authorId, t.updatedAt, t.id),
    index('notes_patient_updated_idx').on(t.patientId, t.updatedAt, t.id),
    index('notes_updated_idx').on(t.updatedAt, t.id),
    index('notes_search_tokens_idx').using('gin', t.searchTokens),
    check(
      'notes_category_check',
      sql`${t.category} in ('general', 'medical', 'appointment', 'patient', 'administrative', 'research')`,
    ),
    check('notes_priority_check', sql`${t.priority} in ('low', 'medium', 'high', 'urgent')`),
    check('notes_signed_check', sql`(${t.signedAt} IS NULL) = (${t.signedBy} IS NULL)`),
    check('notes_private_patient_check', sql`NOT ${t.isPrivate} OR ${t.patientId} IS NOT NULL`),
    ...[t.title, t.content, t.tags].map((column) => encryptedCheck('notes', column)),
  ],
);

/** Each signed version of a note, as it was signed: written once, never changed (a trigger). */
export const noteVersions = pgTable(
  'note_versions',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    tags: text('tags').notNull(),
    category: text('category').notNull(),
    priority: text('priority').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    signedBy: uuid('signed_by')
      .notNull()
      .references(() => users.id),
  },
  (t) => [
    uniqueIndex('note_versions_note_version_idx').on(t.noteId, t.version),
    ...[t.title, t.content, t.tags].map((column) => encryptedCheck('note_versions', column)),
  ],
);

/** Why a signed note was unlocked, by whom and when: the record of the change (never changed, a trigger). */
export const noteUnlocks = pgTable(
  'note_unlocks',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id),
    /** The signed version that was unlocked. */
    version: integer('version').notNull(),
    reason: text('reason').notNull(),
    unlockedBy: uuid('unlocked_by')
      .notNull()
      .references(() => users.id),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_unlocks_note_idx').on(t.noteId), encryptedCheck('note_unlocks', t.reason)],
);

/** An addendum to a signed note: signed and dated when written, never changed (a trigger). */
export const noteAddenda = pgTable(
  'note_addenda',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id),
    /** The note's version it was added to. */
    noteVersion: integer('note_version').notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_addenda_note_idx').on(t.noteId, t.signedAt), encryptedCheck('note_addenda', t.content)],
);

/** The editor's templates: the built-in four (`key` set) and the practice's own. Not health information. */
export const noteTemplates = pgTable(
  'note_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').unique(),
    name: text('name').notNull(),
    body: text('body').notNull(),
    category: text('category').notNull().default('general'),
    isActive: boolean('is_active').notNull().default(true),
    updatedBy: uuid('updated_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    check(
      'note_templates_category_check',
      sql`${t.category} in ('general', 'medical', 'appointment', 'patient', 'administrative', 'research')`,
    ),
  ],
);
