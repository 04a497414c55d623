import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * The practice's documents (issue 28, decision 066): a kind (the four built-in ones exist at most once, so the
 * flows built on them find them by kind), whether patients must sign it and whether it is in use. Its texts live in
 * its versions.
 */
export const practiceDocuments = pgTable(
  'practice_documents',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    requiresSignature: boolean('requires_signature').notNull(),
    active: boolean('active').notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('practice_documents_kind_idx')
      .on(t.kind)
      .where(sql`${t.kind} <> 'custom'`),
    check(
      'practice_documents_kind_check',
      sql`${t.kind} in ('telehealth-consent', 'privacy-notice', 'financial-policy', 'cancellation-policy', 'custom')`,
    ),
  ],
);

/**
 * Every text of a document: a version is never changed. `textHash` is the SHA-256 of the exact texts (see
 * `practiceDocumentTextHash`); `resignRequired` says whether a signature of an earlier version stops holding (the
 * first version always does: nobody signed before it). Titles and bodies are encrypted with the data keys.
 */
export const practiceDocumentVersions = pgTable(
  'practice_document_versions',
  {
    id: uuid('id').primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => practiceDocuments.id),
    version: integer('version').notNull(),
    titleEn: text('title_en').notNull(),
    titleEs: text('title_es'),
    bodyEn: text('body_en').notNull(),
    bodyEs: text('body_es'),
    textHash: text('text_hash').notNull(),
    resignRequired: boolean('resign_required').notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('practice_document_versions_version_idx').on(t.documentId, t.version),
    check('practice_document_versions_hash_check', sql`${t.textHash} ~ '^[0-9a-f]{64}$'`),
    encryptedCheck('practice_document_versions', t.titleEn),
    encryptedCheck('practice_document_versions', t.titleEs),
    encryptedCheck('practice_document_versions', t.bodyEn),
    encryptedCheck('practice_document_versions', t.bodyEs),
  ],
);

/**
 * A patient's signature of one exact version (its id and its text hash, copied so the record says what was
 * signed on its own). Electronic: the typed name, the time, the client address and user agent, the account that
 * signed (the facts encrypted). Paper: the date the patient signed the copy and who recorded it. Never changed.
 */
export const practiceDocumentSignatures = pgTable(
  'practice_document_signatures',
  {
    id: uuid('id').primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => practiceDocuments.id),
    versionId: uuid('version_id')
      .notNull()
      .references(() => practiceDocumentVersions.id),
    textHash: text('text_hash').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    method: text('method').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
    typedName: text('typed_name'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    accountId: uuid('account_id').references(() => users.id),
    paperSignedOn: date('paper_signed_on', { mode: 'string' }),
    recordedBy: uuid('recorded_by').references(() => users.id),
  },
  (t) => [
    index('practice_document_signatures_patient_idx').on(t.patientId, t.documentId),
    check('practice_document_signatures_method_check', sql`${t.method} in ('electronic', 'paper')`),
    check(
      'practice_document_signatures_facts_check',
      sql`(${t.method} = 'electronic' AND ${t.typedName} IS NOT NULL AND ${t.accountId} IS NOT NULL)
        OR (${t.method} = 'paper' AND ${t.paperSignedOn} IS NOT NULL AND ${t.recordedBy} IS NOT NULL)`,
    ),
    encryptedCheck('practice_document_signatures', t.typedName),
    encryptedCheck('practice_document_signatures', t.clientAddress),
    encryptedCheck('practice_document_signatures', t.userAgent),
  ],
);
