import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { ConversationKind, MessageAttachmentType, MessageSide } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { conversationArchives, conversations, messageAttachments, messages } from './messages.table.ts';
import { onCareTeamOf, patientIdsOfAccount, patientRecords } from '../patients/patients.repository.ts';
import { conversationsEncrypted, messageAttachmentsEncrypted, messagesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userNameOf, userNameOrNullOf } from '../users/users.repository.ts';

/**
 * Which conversations a caller reaches (decision 029):
 * - `patient`: those about the patient record linked to their account, clinical and office;
 * - `careTeam`: a provider: the clinical conversations of the patients whose care team they are on;
 * - `office`: an administrator: every office conversation, never a clinical one.
 */
export type ConversationReach =
  { kind: 'patient'; accountId: string } | { kind: 'careTeam'; providerId: string } | { kind: 'office' };

/** The side of a conversation a reach writes on. */
export function sideOf(reach: ConversationReach): MessageSide {
  return reach.kind === 'patient' ? 'patient' : 'practice';
}

export function otherSide(side: MessageSide): MessageSide {
  return side === 'patient' ? 'practice' : 'patient';
}

/** The one condition that keeps each caller to their own conversations. */
export function reachCondition(reach: ConversationReach): SQL {
  switch (reach.kind) {
    case 'patient':
      return sql`${conversations.patientId} IN ${patientIdsOfAccount(reach.accountId)}`;
    case 'careTeam':
      return and(eq(conversations.kind, 'clinical'), onCareTeamOf(sql`${conversations.patientId}`, reach.providerId))!;
    case 'office':
      return eq(conversations.kind, 'office');
  }
}

function tokensCondition(column: SQL | typeof conversations.searchTokens, tokens: readonly string[]): SQL {
  return sql`${column} @> ARRAY[${sql.join(
    tokens.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
}

export interface ConversationRecord {
  conversation: typeof conversations.$inferSelect;
  patientName: string;
  /** The patient's primary provider (the care team's name shown to the patient). */
  providerName: string | null;
  unreadCount: number;
  archived: boolean;
  lastMessageId: string | null;
  lastMessageBody: string | null;
  /** The last message's time as PostgreSQL writes it (microseconds): the page cursor. */
  cursorTime: string;
}

const patient = patientRecords('patient');

function selectConversations(executor: Executor, reach: ConversationReach, callerId: string) {
  const unreadSide = otherSide(sideOf(reach));
  return executor
    .select({
      conversation: conversations,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      providerName: userNameOrNullOf(patient.ownerId),
      unreadCount: sql<number>`(SELECT count(*) FROM ${messages} WHERE ${messages.conversationId} = ${conversations.id}
        AND ${messages.senderSide} = ${unreadSide} AND ${messages.readAt} IS NULL)::int`,
      archived: sql<boolean>`EXISTS (SELECT 1 FROM ${conversationArchives}
        WHERE ${conversationArchives.conversationId} = ${conversations.id} AND ${conversationArchives.userId} = ${callerId})`,
      lastMessageId: sql<string | null>`(SELECT ${messages.id} FROM ${messages}
        WHERE ${messages.conversationId} = ${conversations.id} ORDER BY ${messages.createdAt} DESC LIMIT 1)`,
      lastMessageBody: sql<string | null>`(SELECT ${messages.body} FROM ${messages}
        WHERE ${messages.conversationId} = ${conversations.id} ORDER BY ${messages.createdAt} DESC LIMIT 1)`,
      cursorTime: sql<string>`${conversations.lastMessageAt}::text`,
    })
    .from(conversations)
    .innerJoin(patient, eq(patient.id, conversations.patientId));
}

type ConversationRow = Awaited<ReturnType<ReturnType<typeof selectConversations>['execute']>>[number];

function toRecord(keyring: Keyring, row: ConversationRow): ConversationRecord {
  const { lastMessageId, lastMessageBody } = row;
  return {
    conversation: conversationsEncrypted.open(keyring, row.conversation),
    patientName: `${row.patientFirstName} ${row.patientLastName}`,
    providerName: row.providerName,
    unreadCount: row.unreadCount,
    archived: row.archived,
    lastMessageId,
    // Decrypted only when read (a list that shows no preview decrypts nothing).
    get lastMessageBody() {
      return lastMessageId && lastMessageBody
        ? messagesEncrypted.decryptValue(keyring, lastMessageId, 'body', lastMessageBody)
        : null;
    },
    cursorTime: row.cursorTime,
  };
}

export interface ConversationListFilter {
  archived: boolean;
  patientId?: string | null | undefined;
  /** Blind-index tokens the subject or one of the messages must hold, all of them. */
  searchTokens: readonly string[];
}

/** One page of the caller's conversations, latest message first, after the cursor; one extra row tells if more follow. */
export async function listConversationsPage(
  executor: Executor,
  keyring: Keyring,
  options: {
    reach: ConversationReach;
    callerId: string;
    filter: ConversationListFilter;
    after: readonly [string, string] | null;
    limit: number;
  },
): Promise<{ records: ConversationRecord[]; next: readonly [string, string] | null }> {
  const { reach, callerId, filter, after, limit } = options;
  const archived = sql`EXISTS (SELECT 1 FROM ${conversationArchives}
    WHERE ${conversationArchives.conversationId} = ${conversations.id} AND ${conversationArchives.userId} = ${callerId})`;
  const conditions: SQL[] = [reachCondition(reach), filter.archived ? archived : sql`NOT ${archived}`];
  if (filter.patientId) conditions.push(eq(conversations.patientId, filter.patientId));
  if (filter.searchTokens.length > 0) {
    conditions.push(
      sql`(${tokensCondition(conversations.searchTokens, filter.searchTokens)} OR EXISTS (SELECT 1 FROM ${messages}
        WHERE ${messages.conversationId} = ${conversations.id}
        AND ${tokensCondition(sql`${messages.searchTokens}`, filter.searchTokens)}))`,
    );
  }
  if (after) {
    conditions.push(
      sql`(${conversations.lastMessageAt}, ${conversations.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`,
    );
  }
  const rows = await selectConversations(executor, reach, callerId)
    .where(and(...conditions))
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).map((row) => toRecord(keyring, row));
  const last = page.at(-1);
  return {
    records: page,
    next: rows.length > limit && last ? [last.cursorTime, last.conversation.id] : null,
  };
}

/** The conversation if the caller reaches it (locked for the transaction with `lock`). */
export async function findConversation(
  executor: Executor,
  keyring: Keyring,
  id: string,
  reach: ConversationReach,
  callerId: string,
  options: { lock?: boolean } = {},
): Promise<ConversationRecord | undefined> {
  const query = selectConversations(executor, reach, callerId).where(
    and(eq(conversations.id, id), reachCondition(reach)),
  );
  const [row] = options.lock ? await query.for('update', { of: conversations }) : await query;
  return row ? toRecord(keyring, row) : undefined;
}

export async function conversationExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, id));
  return !!row;
}

/** The caller's unread messages: those of the other side not read yet, in conversations they have not archived. */
export async function countUnread(executor: Executor, reach: ConversationReach, callerId: string): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        reachCondition(reach),
        eq(messages.senderSide, otherSide(sideOf(reach))),
        isNull(messages.readAt),
        sql`NOT EXISTS (SELECT 1 FROM ${conversationArchives}
          WHERE ${conversationArchives.conversationId} = ${conversations.id} AND ${conversationArchives.userId} = ${callerId})`,
      ),
    );
  return row?.count ?? 0;
}

export async function insertConversation(
  executor: Executor,
  keyring: Keyring,
  values: {
    patientId: string;
    kind: ConversationKind;
    subject: string;
    createdBy: string;
    searchTokens: string[];
    searchKeyId: string;
    /** Only the demo's history sets these; default now. */
    createdAt?: Date;
    lastMessageAt?: Date;
    patientReadAt?: Date | null;
    practiceReadAt?: Date | null;
  },
): Promise<string> {
  const id = randomUUID();
  await executor.insert(conversations).values(conversationsEncrypted.seal(keyring, id, { id, ...values }));
  return id;
}

export async function insertMessage(
  executor: Executor,
  keyring: Keyring,
  values: {
    conversationId: string;
    senderId: string;
    senderSide: MessageSide;
    body: string;
    searchTokens: string[];
    searchKeyId: string;
    /** Only the demo's history sets these; default now, unread. */
    createdAt?: Date;
    readAt?: Date | null;
    readBy?: string | null;
  },
): Promise<{ id: string; createdAt: Date }> {
  const id = randomUUID();
  const [row] = await executor
    .insert(messages)
    .values(messagesEncrypted.seal(keyring, id, { id, ...values }))
    .returning({ id: messages.id, createdAt: messages.createdAt });
  return row!;
}

/** After a message: the conversation moves up, and comes back to every participant's inbox. */
export async function touchConversation(executor: Executor, id: string, at: Date): Promise<void> {
  await executor.update(conversations).set({ lastMessageAt: at }).where(eq(conversations.id, id));
  await executor.delete(conversationArchives).where(eq(conversationArchives.conversationId, id));
}

/** Marks the other side's unread messages read by the caller, and the side's reading time. Answers the ids marked. */
export async function markRead(executor: Executor, id: string, side: MessageSide, readerId: string): Promise<string[]> {
  const now = new Date();
  const rows = await executor
    .update(messages)
    .set({ readAt: now, readBy: readerId })
    .where(and(eq(messages.conversationId, id), eq(messages.senderSide, otherSide(side)), isNull(messages.readAt)))
    .returning({ id: messages.id });
  await executor
    .update(conversations)
    .set(side === 'patient' ? { patientReadAt: now } : { practiceReadAt: now })
    .where(eq(conversations.id, id));
  return rows.map((r) => r.id);
}

export async function setArchived(executor: Executor, id: string, userId: string, archived: boolean): Promise<void> {
  if (archived) {
    await executor.insert(conversationArchives).values({ conversationId: id, userId }).onConflictDoNothing();
  } else {
    await executor
      .delete(conversationArchives)
      .where(and(eq(conversationArchives.conversationId, id), eq(conversationArchives.userId, userId)));
  }
}

export interface AttachmentInfo {
  id: string;
  messageId: string | null;
  fileName: string;
  mediaType: MessageAttachmentType;
  sizeBytes: number;
}

export interface MessageRecord {
  message: typeof messages.$inferSelect;
  senderName: string;
  attachments: AttachmentInfo[];
}

/** The messages of a conversation, oldest first, with their attachments (names, not bytes). */
export async function messagesOf(
  executor: Executor,
  keyring: Keyring,
  conversationId: string,
): Promise<MessageRecord[]> {
  const rows = await executor
    .select({ message: messages, senderName: userNameOf(messages.senderId) })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  const ids = rows.map((r) => r.message.id);
  const attachments =
    ids.length === 0
      ? []
      : await executor
          .select({
            id: messageAttachments.id,
            messageId: messageAttachments.messageId,
            fileName: messageAttachments.fileName,
            mediaType: messageAttachments.mediaType,
            sizeBytes: messageAttachments.sizeBytes,
          })
          .from(messageAttachments)
          .where(inArray(messageAttachments.messageId, ids))
          .orderBy(asc(messageAttachments.createdAt));
  const opened = attachments.map(
    (a) => messageAttachmentsEncrypted.open(keyring, { ...a }) as AttachmentInfo & { mediaType: MessageAttachmentType },
  );
  return rows.map((row) => ({
    message: messagesEncrypted.open(keyring, row.message),
    senderName: row.senderName,
    attachments: opened.filter((a) => a.messageId === row.message.id),
  }));
}
