// A message's files (decision 029): uploaded before the message is sent, given to it when it is, read back by whoever
// reaches its conversation, and the pending ones pruned. The bytes are in the blob store, sealed per file (decision
// 070); a row from before it keeps them sealed in `data`, bound to the row, until they are moved.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { MessageAttachmentType } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { messageAttachmentsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { storedFileOf, type SealedBlobWritten, type StoredFile } from '../blobs/sealed-blobs.ts';
import { fileDataContext } from '../http/encrypted-files.ts';
import { conversations, messageAttachments, messages } from './messages.table.ts';
import { reachCondition, type AttachmentInfo, type ConversationReach } from './messages.repository.ts';

/** Gives the caller's pending attachments to a message; answers how many it took. */
export async function claimAttachments(
  executor: Executor,
  ids: readonly string[],
  uploadedBy: string,
  messageId: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await executor
    .update(messageAttachments)
    .set({ messageId })
    .where(
      and(
        inArray(messageAttachments.id, [...ids]),
        eq(messageAttachments.uploadedBy, uploadedBy),
        isNull(messageAttachments.messageId),
      ),
    )
    .returning({ id: messageAttachments.id });
  return rows.length;
}

/** Records an attachment whose file was written to the blob store (under `attachmentDataContext(id)`). */
export async function insertAttachment(
  executor: Executor,
  keyring: Keyring,
  values: {
    id: string;
    uploadedBy: string;
    fileName: string;
    mediaType: MessageAttachmentType;
    file: SealedBlobWritten;
  },
): Promise<AttachmentInfo> {
  const { id, file } = values;
  await executor.insert(messageAttachments).values(
    messageAttachmentsEncrypted.seal(keyring, id, {
      id,
      uploadedBy: values.uploadedBy,
      fileName: values.fileName,
      mediaType: values.mediaType,
      sizeBytes: file.plainBytes,
      blobKey: file.blobKey,
      keyId: file.keyId,
      wrappedKey: file.wrappedKey,
    }),
  );
  return { id, messageId: null, fileName: values.fileName, mediaType: values.mediaType, sizeBytes: file.plainBytes };
}

/** Where an attachment's encrypted bytes are stored: bound to its table, column and id. */
export function attachmentDataContext(id: string) {
  return fileDataContext('message_attachments', id);
}

/**
 * An attachment the caller may download: one sent in a conversation they reach, or one they uploaded and have not
 * sent yet. With its conversation and patient (null while pending).
 */
export async function findAttachment(
  executor: Executor,
  keyring: Keyring,
  id: string,
  reach: ConversationReach,
  callerId: string,
): Promise<
  { file: AttachmentInfo & { stored: StoredFile }; conversationId: string | null; patientId: string | null } | undefined
> {
  const [row] = await executor
    .select({
      attachment: messageAttachments,
      conversationId: conversations.id,
      patientId: conversations.patientId,
    })
    .from(messageAttachments)
    .leftJoin(messages, eq(messages.id, messageAttachments.messageId))
    .leftJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(messageAttachments.id, id),
        sql`((${messageAttachments.messageId} IS NULL AND ${messageAttachments.uploadedBy} = ${callerId})
          OR (${messageAttachments.messageId} IS NOT NULL AND ${reachCondition(reach)}))`,
      ),
    );
  if (!row) return undefined;
  const attachment = messageAttachmentsEncrypted.open(keyring, row.attachment);
  return {
    file: {
      id: attachment.id,
      messageId: attachment.messageId,
      fileName: attachment.fileName,
      mediaType: attachment.mediaType as MessageAttachmentType,
      sizeBytes: attachment.sizeBytes,
      stored: storedFileOf(attachment),
    },
    conversationId: row.conversationId,
    patientId: row.patientId,
  };
}

/** Whether the attachment exists, and the kind of its conversation (null while it is not sent). */
export async function attachmentKind(executor: Executor, id: string): Promise<{ kind: string | null } | undefined> {
  const [row] = await executor
    .select({ kind: conversations.kind })
    .from(messageAttachments)
    .leftJoin(messages, eq(messages.id, messageAttachments.messageId))
    .leftJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messageAttachments.id, id));
  return row;
}

/** How many files the person uploaded and has not sent yet. */
export async function countPendingAttachments(executor: Executor, uploadedBy: string): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(messageAttachments)
    .where(and(eq(messageAttachments.uploadedBy, uploadedBy), isNull(messageAttachments.messageId)));
  return row?.count ?? 0;
}

/**
 * Deletes up to `limit` attachments uploaded before `before` and never sent. Answers the rows deleted with their
 * blob keys (null for a file that was in the row), whose blobs the caller removes once this has committed.
 */
export async function deleteUnsentAttachments(
  executor: Executor,
  before: Date,
  limit: number,
): Promise<{ id: string; blobKey: string | null }[]> {
  const batch = executor
    .select({ id: messageAttachments.id })
    .from(messageAttachments)
    .where(and(isNull(messageAttachments.messageId), sql`${messageAttachments.createdAt} < ${before.toISOString()}`))
    .limit(limit);
  return executor
    .delete(messageAttachments)
    .where(and(inArray(messageAttachments.id, batch), isNull(messageAttachments.messageId)))
    .returning({ id: messageAttachments.id, blobKey: messageAttachments.blobKey });
}
