import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea, encryptedCheck } from '../db/columns.ts';
import { fileIsKept, sealedBlobColumns } from '../blobs/blob-columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/**
 * A conversation between one patient and their care team (`clinical`) or the practice's office (`office`). The
 * subject is encrypted; its blind-index tokens let the participants search it. `patientReadAt`/`practiceReadAt`
 * are when each side last read it, `patientNotifiedAt`/`practiceNotifiedAt` when each side was last e-mailed
 * that a message waits (one mail until that side reads).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    patientReadAt: timestamp('patient_read_at', { withTimezone: true }),
    practiceReadAt: timestamp('practice_read_at', { withTimezone: true }),
    patientNotifiedAt: timestamp('patient_notified_at', { withTimezone: true }),
    practiceNotifiedAt: timestamp('practice_notified_at', { withTimezone: true }),
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which search key made `searchTokens` (a new key re-indexes at start). */
    searchKeyId: text('search_key_id').notNull(),
  },
  (t) => [
    index('conversations_patient_idx').on(t.patientId, t.lastMessageAt, t.id),
    index('conversations_kind_idx').on(t.kind, t.lastMessageAt, t.id),
    index('conversations_search_tokens_idx').using('gin', t.searchTokens),
    check('conversations_kind_check', sql`${t.kind} in ('clinical', 'office')`),
    encryptedCheck('conversations', t.subject),
  ],
);

/** One message: its text encrypted, which side wrote it, and when the other side first read it. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id),
    senderSide: text('sender_side').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    readBy: uuid('read_by').references(() => users.id),
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which search key made `searchTokens` (a new key re-indexes at start). */
    searchKeyId: text('search_key_id').notNull(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.createdAt),
    index('messages_unread_idx')
      .on(t.conversationId, t.senderSide)
      .where(sql`${t.readAt} IS NULL`),
    index('messages_search_tokens_idx').using('gin', t.searchTokens),
    check('messages_sender_side_check', sql`${t.senderSide} in ('patient', 'practice')`),
    check('messages_read_check', sql`(${t.readAt} IS NULL) = (${t.readBy} IS NULL)`),
    encryptedCheck('messages', t.body),
  ],
);

/**
 * A file attached to a message: uploaded first (pending, `messageId` null, its uploader's only), then sent with a
 * message. Name and bytes are encrypted with the data keys; the type is the one its content showed. The bytes are
 * in the blob store (decision 070); rows from before it keep them sealed in `data` until they are moved.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: uuid('id').primaryKey(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    messageId: uuid('message_id').references(() => messages.id),
    fileName: text('file_name').notNull(),
    mediaType: text('media_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data'),
    ...sealedBlobColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('message_attachments_file_check', fileIsKept(t)),
    index('message_attachments_message_idx').on(t.messageId),
    index('message_attachments_pending_idx')
      .on(t.uploadedBy, t.createdAt)
      .where(sql`${t.messageId} IS NULL`),
    check(
      'message_attachments_media_type_check',
      sql`${t.mediaType} in ('application/pdf', 'image/png', 'image/jpeg')`,
    ),
    encryptedCheck('message_attachments', t.fileName),
  ],
);

/** A participant's archive of a conversation: out of their inbox until a new message arrives. */
export const conversationArchives = pgTable(
  'conversation_archives',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    archivedAt: timestamp('archived_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] })],
);
