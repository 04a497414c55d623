// A message's files (decision 029): uploaded before the message is sent, given to it when it is, read back by whoever
// reaches its conversation, and the pending ones pruned. The bytes are sealed with the data keys, bound to the row.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { MessageAttachmentType } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { messageAttachmentsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { fileDataContext, sealFileBytes } from '../http/encrypted-files.ts';
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

export async function insertAttachment(
  executor: Executor,
  keyring: Keyring,
  values: { uploadedBy: string; fileName: string; mediaType: MessageAttachmentType; bytes: Buffer },
): Promise<AttachmentInfo> {
  const id = randomUUID();
  const data = sealFileBytes(keyring, 'message_attachments', id, values.bytes);
  await executor.insert(messageAttachments).values(
    messageAttachmentsEncrypted.seal(keyring, id, {
      id,
      uploadedBy: values.uploadedBy,
      fileName: values.fileName,
      mediaType: values.mediaType,
      sizeBytes: values.bytes.length,
      data,
    }),
  );
  return {
    id,
    messageId: null,
    fileName: values.fileName,
    mediaType: values.mediaType,
    sizeBytes: values.bytes.length,
  };
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
  { file: AttachmentInfo & { data: Buffer }; conversationId: string | null; patientId: string | null } | undefined
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
      data: attachment.data,
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

/** Deletes the attachments uploaded before `before` and never sent. Answers how many. */
export async function deleteUnsentAttachments(executor: Executor, before: Date): Promise<number> {
  const rows = await executor
    .delete(messageAttachments)
    .where(and(isNull(messageAttachments.messageId), sql`${messageAttachments.createdAt} < ${before.toISOString()}`))
    .returning({ id: messageAttachments.id });
  return rows.length;
}
