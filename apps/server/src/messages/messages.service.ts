import { and, asc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import {
  attachmentFileName,
  AttachmentUploadSchema,
  seesRecordPart,
  ConversationFilterSchema,
  detectAttachmentType,
  ERROR_CODES,
  MAX_PAGE_SIZE,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_PENDING_ATTACHMENTS_MAX,
  PAGE_SIZE,
  rolesWith,
  SendMessageInputSchema,
  StartConversationInputSchema,
  type AuditEvent,
  type ConversationKind,
  type MessageSide,
} from '@telehealth/shared';
import { authorize, recordOutOfReach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { appendAuditEntry, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { conversations, messages } from './messages.table.ts';
import { patients } from '../patients/patients.table.ts';
import { AppError, badUserInput, fieldError, notFound, parseInput } from '../errors.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import { conversationsEncrypted, messagesEncrypted } from '../keys/encrypted-columns.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { MailService } from '../mail/mail.service.ts';
import { messageWaitingMail } from '../mail/templates.ts';
import { BlindIndex, MESSAGES_SEARCH_PURPOSE } from '../search/blind-index.ts';
import { findPatientAccountId, findPatientWithAccount } from '../patients/patients.repository.ts';
import { activeUsersContact, findActiveUsersWithRoles, userNameOrNullOf } from '../users/users.repository.ts';
import { careTeamOf, onCareTeamOf } from './care-team.ts';
import {
  attachmentDataContext,
  attachmentKind,
  claimAttachments,
  countPendingAttachments,
  countUnread,
  deleteUnsentAttachments,
  findAttachment,
  findConversation,
  insertAttachment,
  insertConversation,
  insertMessage,
  listConversationsPage,
  markRead,
  messagesOf,
  otherSide,
  setArchived,
  sideOf,
  touchConversation,
  type AttachmentInfo,
  type ConversationReach,
  type ConversationRecord,
  type MessageRecord,
} from './messages.repository.ts';

/** A conversation as the caller sees it; `messages` only when the thread was read. */
export interface ConversationView {
  record: ConversationRecord;
  mySide: MessageSide;
  messages?: MessageView[];
}

export interface MessageView {
  record: MessageRecord;
  mine: boolean;
}

/** Whom a caller may start a conversation with: a patient's care team, or the office, or one of their patients. */
export interface MessageRecipient {
  patientId: string;
  kind: ConversationKind;
  /** The provider (for a patient), the patient (for the practice), or null for the office. */
  name: string | null;
}

/** Attachments never sent are deleted after this long. */
const UNSENT_ATTACHMENT_HOURS = 24;
const RECIPIENTS_LIMIT = 50;

/**
 * Secure messages (decision 029). Every operation asks the access checkpoint for the caller's reach first; a
 * conversation or attachment out of reach answers like a missing one, and an attempt on an existing one is
 * recorded after the transaction. Every read and send is audited with the patient in `details.patientIds`, in
 * the same transaction; the participants' live channels hear of new messages and reads (ids only).
 */
export class MessagesService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #mail: MailService;
  readonly #config: Config;
  readonly #cursors: CursorCodec<readonly [string, string]>;
  readonly #search: BlindIndex;

  constructor(options: { db: Database; keyring: Keyring; secret: string; mail: MailService; config: Config }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#mail = options.mail;
    this.#config = options.config;
    this.#cursors = new CursorCodec(`${options.secret}:conversations`, 2);
    this.#search = new BlindIndex(options.secret, MESSAGES_SEARCH_PURPOSE);
  }

  async list(caller: Caller, args: { limit?: number | null; nextToken?: string | null; filter?: unknown }) {
    const reach = await this.#reach(caller);
    const filter = parseInput(ConversationFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    if (filter.patientId && !isUuid(filter.patientId)) return { items: [], nextToken: null };
    const searchTokens = filter.search ? this.#search.queryTokens(filter.search) : [];
    return this.#db.transaction(async (tx) => {
      const page = await listConversationsPage(tx, this.#keyring, {
        reach,
        callerId: caller.user.id,
        filter: { archived: filter.archived ?? false, patientId: filter.patientId, searchTokens },
        after,
        limit,
      });
      await this.#audit(tx, caller.actor, caller.operation, 'MESSAGE_LIST_VIEW', {
        conversationIds: page.records.map((r) => r.conversation.id),
        patientIds: [...new Set(page.records.map((r) => r.conversation.patientId))],
        page: after ? 'next' : 'first',
        searched: searchTokens.length > 0,
      });
      const mySide = sideOf(reach);
      return {
        items: page.records.map((record): ConversationView => ({ record, mySide })),
        nextToken: page.next ? this.#cursors.encode(page.next) : null,
      };
    });
  }

  /** One conversation with its messages (oldest first). Reading it does not mark it read: `markRead` does. */
  async get(caller: Caller, id: string): Promise<ConversationView> {
    const reach = await this.#reach(caller);
    const record = await this.#find(caller, 'message:read', id, reach);
    return this.#db.transaction(async (tx) => {
      const thread = await messagesOf(tx, this.#keyring, id);
      await this.#audit(tx, caller.actor, caller.operation, 'MESSAGE_THREAD_VIEW', {
        conversationId: id,
        messages: thread.length,
        patientIds: [record.conversation.patientId],
      });
      return this.#view(caller, reach, record, thread);
    });
  }

  /** The caller's unread messages (the header's badge). A count, no content: not audited. */
  async unreadCount(caller: Caller): Promise<number> {
    return countUnread(this.#db, await this.#reach(caller), caller.user.id);
  }

  /** Whom the caller may start a conversation with (the new conversation dialog's picker). */
  async recipients(caller: Caller, search?: string | null): Promise<MessageRecipient[]> {
    const reach = await this.#sendReach(caller);
    const term = search?.trim().slice(0, 100) ?? '';
    const byName = term
      ? or(
          ilike(patients.firstName, `%${escapeLike(term)}%`),
          ilike(patients.lastName, `%${escapeLike(term)}%`),
          ilike(sql`${patients.firstName} || ' ' || ${patients.lastName}`, `%${escapeLike(term)}%`),
        )
      : undefined;
    const live = and(isNull(patients.deletedAt), sql`${patients.accountId} IS NOT NULL`);
    let recipients: MessageRecipient[];
    if (reach.kind === 'patient') {
      const rows = await this.#db
        .select({ patientId: patients.id, providerName: userNameOrNullOf(patients.ownerId, { activeOnly: true }) })
        .from(patients)
        .where(and(eq(patients.accountId, reach.accountId), isNull(patients.deletedAt)));
      recipients = rows.flatMap((row) => [
        ...(row.providerName ? [{ patientId: row.patientId, kind: 'clinical' as const, name: row.providerName }] : []),
        { patientId: row.patientId, kind: 'office' as const, name: null },
      ]);
    } else {
      const rows = await this.#db
        .select({ patientId: patients.id, firstName: patients.firstName, lastName: patients.lastName })
        .from(patients)
        .where(
          and(
            live,
            reach.kind === 'careTeam' ? onCareTeamOf(sql`${patients.id}`, reach.providerId) : undefined,
            byName,
          ),
        )
        .orderBy(asc(patients.lastName), asc(patients.firstName))
        .limit(RECIPIENTS_LIMIT);
      const kind: ConversationKind = reach.kind === 'careTeam' ? 'clinical' : 'office';
      recipients = rows.map((r) => ({ patientId: r.patientId, kind, name: `${r.firstName} ${r.lastName}` }));
    }
    if (reach.kind !== 'patient') {
      await this.#audit(this.#db, caller.actor, caller.operation, 'MESSAGE_LIST_VIEW', {
        purpose: 'recipients',
        patientIds: recipients.map((r) => r.patientId),
      });
    }
    return recipients;
  }

  /** A new conversation with its first message. */
  async start(caller: Caller, input: unknown): Promise<ConversationView> {
    const data = parseInput(StartConversationInputSchema, input);
    const reach = await this.#sendReach(caller, data.kind);
    const patientId = data.patientId;
    if (reach.kind === 'patient' && data.kind === 'office') {
      // Writing to the office about a record not one's own would be writing as the office: decided before the
      // record is looked up, so the answer says nothing of whether it exists.
      const own = isUuid(patientId)
        ? await this.#db
            .select({ id: patients.id })
            .from(patients)
            .where(and(eq(patients.id, patientId), eq(patients.accountId, reach.accountId), isNull(patients.deletedAt)))
        : [];
      if (own.length === 0) await authorize(this.#db, caller, 'message:office');
    }
    const patient = isUuid(patientId) ? await findPatientWithAccount(this.#db, patientId) : undefined;
    const careTeam = patient && data.kind === 'clinical' ? await careTeamOf(this.#db, patient.id) : [];
    const reachable =
      patient &&
      (reach.kind === 'patient'
        ? patient.accountId === reach.accountId
        : reach.kind === 'careTeam'
          ? careTeam.includes(reach.providerId)
          : data.kind === 'office');
    if (!reachable) {
      if (patient) await recordOutOfReach(this.#db, caller, 'message:send', { patientIds: [patient.id] });
      throw fieldError('patientId', 'secureMessageMessages.recipientNotYours');
    }
    if (!patient.accountId) throw fieldError('patientId', 'secureMessageMessages.noPortalAccount');
    // A clinical conversation needs someone on the care team to read it (a patient without a provider writes to the office).
    if (data.kind === 'clinical' && careTeam.length === 0) {
      throw fieldError('patientId', 'secureMessageMessages.recipientNotYours');
    }
    const side = sideOf(reach);
    const id = await this.#db.transaction(async (tx) => {
      const conversationId = await insertConversation(tx, this.#keyring, {
        patientId: patient.id,
        kind: data.kind,
        subject: data.subject,
        createdBy: caller.user.id,
        searchTokens: this.#search.tokensOf([data.subject]),
        searchKeyId: this.#search.keyId,
      });
      await this.#audit(tx, caller.actor, caller.operation, 'CONVERSATION_START', {
        conversationId,
        kind: data.kind,
        patientIds: [patient.id],
      });
      await this.#addMessage(tx, caller, conversationId, patient.id, data.kind, side, data.body, data.attachmentIds);
      await recordIdempotencyKey(tx, caller, conversationId);
      return conversationId;
    });
    return this.get(caller, id);
  }

  /** A message in a conversation the caller reaches. */
  async send(caller: Caller, input: unknown): Promise<MessageView> {
    const data = parseInput(SendMessageInputSchema, input);
    const reach = await this.#sendReach(caller);
    await this.#find(caller, 'message:send', data.conversationId, reach);
    const messageId = await this.#db.transaction(async (tx) => {
      // Locked: two messages at once are ordered, and the mail job sees both.
      const record = await findConversation(tx, this.#keyring, data.conversationId, reach, caller.user.id, {
        lock: true,
      });
      if (!record) throw notFound('secureMessageMessages.notFound');
      const { conversation } = record;
      const id = await this.#addMessage(
        tx,
        caller,
        conversation.id,
        conversation.patientId,
        conversation.kind as ConversationKind,
        sideOf(reach),
        data.body,
        data.attachmentIds,
      );
      await recordIdempotencyKey(tx, caller, id);
      return id;
    });
    const thread = await messagesOf(this.#db, this.#keyring, data.conversationId);
    const record = thread.find((m) => m.message.id === messageId)!;
    return { record, mine: true };
  }

  /**
   * A message the caller sent, answered again for a retried sendMessage (decision 044): read, and recorded, as
   * its conversation is.
   */
  async sent(caller: Caller, conversationId: string, messageId: string): Promise<MessageView> {
    const conversation = await this.get(caller, conversationId);
    const message = conversation.messages?.find((m) => m.record.message.id === messageId);
    if (!message) throw notFound('secureMessageMessages.notFound');
    return message;
  }

  /** Marks the other side's messages read (the sender then sees when). Answers the conversation. */
  async markRead(caller: Caller, id: string): Promise<ConversationView> {
    const reach = await this.#reach(caller);
    const record = await this.#find(caller, 'message:read', id, reach);
    const side = sideOf(reach);
    await this.#db.transaction(async (tx) => {
      const marked = await markRead(tx, id, side, caller.user.id);
      if (marked.length === 0) return;
      await this.#audit(tx, caller.actor, caller.operation, 'MESSAGE_READ', {
        conversationId: id,
        messageIds: marked,
        patientIds: [record.conversation.patientId],
      });
      await this.#tellParticipants(tx, record.conversation, { type: 'messages-read', conversationId: id });
    });
    return this.#reload(caller, reach, id);
  }

  /** Archives (or brings back) a conversation for the caller only. */
  async archive(caller: Caller, id: string, archived: boolean): Promise<ConversationView> {
    const reach = await this.#reach(caller);
    const record = await this.#find(caller, 'message:read', id, reach);
    await this.#db.transaction(async (tx) => {
      await setArchived(tx, id, caller.user.id, archived);
      await this.#audit(tx, caller.actor, caller.operation, 'CONVERSATION_ARCHIVE', {
        conversationId: id,
        archived,
        patientIds: [record.conversation.patientId],
      });
      // The caller's other tabs update their list and badge.
      await publishToUsers(tx, [caller.user.id], { type: 'messages-read', conversationId: id });
    });
    return this.#reload(caller, reach, id);
  }

  // Attachments --------------------------------------------------------------------------------------------

  /**
   * Keeps an uploaded file, encrypted, until it is sent with a message (or deleted unsent after a day). Its type
   * is the one its content shows (PDF, PNG, JPEG), whatever its name says; anything else is refused.
   */
  async uploadAttachment(caller: Caller, file: { bytes: Buffer; fileName: string }): Promise<AttachmentInfo> {
    await this.#sendReach(caller);
    // The name under the one text rule first (decision 022): refused with its field's message, never cleaned.
    const { fileName } = parseInput(AttachmentUploadSchema, { fileName: file.fileName });
    if (file.bytes.length === 0) throw badUserInput('secureMessageMessages.attachmentEmpty');
    if (file.bytes.length > MESSAGE_ATTACHMENT_MAX_BYTES) throw attachmentTooLarge();
    const mediaType = detectAttachmentType(file.bytes);
    if (!mediaType) throw badUserInput('secureMessageMessages.attachmentWrongType');
    // Unsent files are kept a day: a cap keeps one person from filling the database with them meanwhile.
    if ((await countPendingAttachments(this.#db, caller.user.id)) >= MESSAGE_PENDING_ATTACHMENTS_MAX) {
      throw badUserInput('secureMessageMessages.attachmentsPending');
    }
    return this.#db.transaction(async (tx) => {
      const attachment = await insertAttachment(tx, this.#keyring, {
        uploadedBy: caller.user.id,
        fileName: attachmentFileName(fileName, mediaType),
        mediaType,
        bytes: file.bytes,
      });
      await this.#audit(tx, caller.actor, caller.operation, 'MESSAGE_ATTACHMENT_UPLOAD', {
        attachmentId: attachment.id,
        mediaType,
        sizeBytes: attachment.sizeBytes,
        // Not yet sent: about no patient until a message carries it.
        patientIds: [],
      });
      return attachment;
    });
  }

  /** An attachment's bytes, for the participants of its conversation (and its uploader before it is sent). */
  async downloadAttachment(caller: Caller, id: string): Promise<AttachmentInfo & { data: Buffer }> {
    const reach = await this.#reach(caller);
    const found = isUuid(id) ? await findAttachment(this.#db, this.#keyring, id, reach, caller.user.id) : undefined;
    if (!found) {
      const existing = isUuid(id) ? await attachmentKind(this.#db, id) : undefined;
      if (existing)
        await recordOutOfReach(this.#db, caller, 'message:read', { attachmentIds: [id], kind: existing.kind });
      throw notFound('secureMessageMessages.attachmentNotFound');
    }
    const data = this.#keyring.decryptBytes(found.file.data, attachmentDataContext(id));
    await this.#audit(this.#db, caller.actor, caller.operation, 'MESSAGE_ATTACHMENT_DOWNLOAD', {
      attachmentId: id,
      conversationId: found.conversationId,
      patientIds: found.patientId ? [found.patientId] : [],
    });
    return { ...found.file, data };
  }

  // Jobs ---------------------------------------------------------------------------------------------------

  /**
   * `message:notify`: e-mails one side of a conversation that a message waits, unless it was read by now, or that
   * side was already e-mailed since it last read the conversation (one mail per unread burst). The mail says only
   * that there is a message, with a link to /messages.
   */
  async notify(conversationId: string, side: MessageSide): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const [conversation] = await tx
        .select()
        .from(conversations)
        .where(eq(conversations.id, conversationId))
        .for('update');
      if (!conversation) return;
      const [unread] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(messages)
        .where(
          and(
            eq(messages.conversationId, conversationId),
            eq(messages.senderSide, otherSide(side)),
            isNull(messages.readAt),
          ),
        );
      if (!unread || unread.count === 0) return;
      const notifiedAt = side === 'patient' ? conversation.patientNotifiedAt : conversation.practiceNotifiedAt;
      const readAt = side === 'patient' ? conversation.patientReadAt : conversation.practiceReadAt;
      if (notifiedAt && (!readAt || notifiedAt > readAt)) return;
      const to = await this.#mailRecipients(tx, conversation, side);
      await this.#mail.enqueue(
        tx,
        to.map((r) => ({
          to: r.email,
          kind: 'message-waiting' as const,
          language: r.language,
          content: messageWaitingMail(this.#mail.context, r.language),
        })),
      );
      await tx
        .update(conversations)
        .set(side === 'patient' ? { patientNotifiedAt: new Date() } : { practiceNotifiedAt: new Date() })
        .where(eq(conversations.id, conversationId));
      await this.#audit(tx, SYSTEM_ACTOR, null, 'MESSAGE_NOTIFIED', {
        conversationId,
        side,
        recipients: to.length,
        patientIds: [conversation.patientId],
      });
    });
  }

  /** `message-attachments:prune`: deletes the attachments uploaded but never sent. */
  async pruneUnsentAttachments(): Promise<number> {
    return deleteUnsentAttachments(this.#db, new Date(Date.now() - UNSENT_ATTACHMENT_HOURS * 3_600_000));
  }

  /** Re-indexes the subjects and messages indexed under another search key (AUTH_SECRET changed), at start. */
  async reindexSearch(): Promise<number> {
    let count = 0;
    for (;;) {
      const rows = await this.#db
        .select({ id: conversations.id, subject: conversations.subject })
        .from(conversations)
        .where(sql`${conversations.searchKeyId} <> ${this.#search.keyId}`)
        .limit(200);
      for (const row of rows) {
        const subject = conversationsEncrypted.decryptValue(this.#keyring, row.id, 'subject', row.subject);
        await this.#db
          .update(conversations)
          .set({ searchTokens: this.#search.tokensOf([subject]), searchKeyId: this.#search.keyId })
          .where(eq(conversations.id, row.id));
      }
      const bodies = await this.#db
        .select({ id: messages.id, body: messages.body })
        .from(messages)
        .where(sql`${messages.searchKeyId} <> ${this.#search.keyId}`)
        .limit(200);
      for (const row of bodies) {
        const body = messagesEncrypted.decryptValue(this.#keyring, row.id, 'body', row.body);
        await this.#db
          .update(messages)
          .set({ searchTokens: this.#search.tokensOf([body]), searchKeyId: this.#search.keyId })
          .where(eq(messages.id, row.id));
      }
      if (rows.length === 0 && bodies.length === 0) return count;
      count += rows.length + bodies.length;
    }
  }

  // ------------------------------------------------------------------------------------------------------

  /** The conversations the caller reads: administrators the office's; providers and patients their own. */
  async #reach(caller: Caller): Promise<ConversationReach> {
    if (seesRecordPart(caller.user.role, 'message:office-inbox')) {
      await authorize(this.#db, caller, 'message:office');
      return { kind: 'office' };
    }
    return this.#ownReach(await authorize(this.#db, caller, 'message:read'));
  }

  /** As `#reach`, for writing: also checks the send permission (and, for a new conversation, its kind). */
  async #sendReach(caller: Caller, kind?: ConversationKind): Promise<ConversationReach> {
    if (seesRecordPart(caller.user.role, 'message:office-inbox')) {
      // Administrators answer the office's conversations; a clinical one is not theirs to start.
      if (kind === 'clinical') await authorize(this.#db, caller, 'message:send');
      await authorize(this.#db, caller, 'message:office');
      return { kind: 'office' };
    }
    const reach = this.#ownReach(await authorize(this.#db, caller, 'message:send'));
    // A provider writes clinical conversations; the office's are the administrators'.
    if (kind === 'office' && reach.kind === 'careTeam') await authorize(this.#db, caller, 'message:office');
    return reach;
  }

  #ownReach(reach: Awaited<ReturnType<typeof authorize<'message:read'>>>): ConversationReach {
    if (reach.kind === 'any') throw new Error('message:read:any is granted to nobody (decision 029)');
    return reach.field === 'patientAccountId'
      ? { kind: 'patient', accountId: reach.callerId }
      : { kind: 'careTeam', providerId: reach.callerId };
  }

  /**
   * The conversation if the caller reaches it. Otherwise it answers like a missing one, whatever the reason (another
   * patient's, another care team's, or a kind the caller's role never reads: a clinical one for an administrator,
   * the office's for a provider), so that no answer tells an id that exists from one that does not; the attempt on
   * an existing one is recorded.
   */
  async #find(
    caller: Caller,
    action: 'message:read' | 'message:send',
    id: string,
    reach: ConversationReach,
  ): Promise<ConversationRecord> {
    const record = isUuid(id) ? await findConversation(this.#db, this.#keyring, id, reach, caller.user.id) : undefined;
    if (record) return record;
    const [existing] = isUuid(id)
      ? await this.#db.select({ kind: conversations.kind }).from(conversations).where(eq(conversations.id, id))
      : [];
    if (existing) await recordOutOfReach(this.#db, caller, action, { conversationIds: [id], kind: existing.kind });
    throw notFound('secureMessageMessages.notFound');
  }

  async #reload(caller: Caller, reach: ConversationReach, id: string): Promise<ConversationView> {
    const record = await findConversation(this.#db, this.#keyring, id, reach, caller.user.id);
    if (!record) throw notFound('secureMessageMessages.notFound');
    return { record, mySide: sideOf(reach) };
  }

  #view(
    caller: Caller,
    reach: ConversationReach,
    record: ConversationRecord,
    thread: MessageRecord[],
  ): ConversationView {
    const mySide = sideOf(reach);
    return {
      record,
      mySide,
      messages: thread.map((m) => ({ record: m, mine: m.message.senderId === caller.user.id })),
    };
  }

  /**
   * Writes a message in the caller's transaction: its attachments claimed, the conversation moved up and back in
   * every inbox, the other side's messages read (replying is reading), the mail job and the live notices.
   */
  async #addMessage(
    tx: Executor,
    caller: Caller,
    conversationId: string,
    patientId: string,
    kind: ConversationKind,
    side: MessageSide,
    body: string,
    attachmentIds: string[],
  ): Promise<string> {
    if (attachmentIds.some((id) => !isUuid(id))) throw badUserInput('secureMessageMessages.attachmentUnavailable');
    const message = await insertMessage(tx, this.#keyring, {
      conversationId,
      senderId: caller.user.id,
      senderSide: side,
      body,
      searchTokens: this.#search.tokensOf([body]),
      searchKeyId: this.#search.keyId,
    });
    const claimed = await claimAttachments(tx, attachmentIds, caller.user.id, message.id);
    if (claimed !== attachmentIds.length) throw badUserInput('secureMessageMessages.attachmentUnavailable');
    await touchConversation(tx, conversationId, message.createdAt);
    await markRead(tx, conversationId, side, caller.user.id);
    await this.#audit(tx, caller.actor, caller.operation, 'MESSAGE_SEND', {
      conversationId,
      messageId: message.id,
      attachmentIds,
      patientIds: [patientId],
    });
    const recipientSide = otherSide(side);
    await addJob(
      tx,
      'message:notify',
      { conversationId, side: recipientSide },
      {
        delayMs: this.#config.messages.mailDelayMinutes * 60_000,
        // One pending mail job per conversation and side: a burst of messages waits for the first one's.
        jobKey: `message:notify:${conversationId}:${recipientSide}`,
        jobKeyMode: 'preserve_run_at',
      },
    );
    await this.#tellParticipants(tx, { id: conversationId, patientId, kind }, { type: 'message-new', conversationId });
    return message.id;
  }

  /** Everyone on the conversation: the patient's account, and the care team or the office. */
  async #participants(tx: Executor, conversation: { patientId: string; kind: string }): Promise<string[]> {
    const patientAccount = await findPatientAccountId(tx, conversation.patientId);
    const practice =
      conversation.kind === 'clinical'
        ? await careTeamOf(tx, conversation.patientId)
        : (await findActiveUsersWithRoles(tx, rolesWith('message:office:any'))).map((u) => u.id);
    return [...(patientAccount ? [patientAccount] : []), ...practice];
  }

  async #tellParticipants(
    tx: Executor,
    conversation: { id: string; patientId: string; kind: string },
    message: { type: 'message-new' | 'messages-read'; conversationId: string },
  ) {
    await publishToUsers(tx, await this.#participants(tx, conversation), message);
  }

  async #mailRecipients(
    tx: Executor,
    conversation: typeof conversations.$inferSelect,
    side: MessageSide,
  ): Promise<{ email: string; language: 'en' | 'es' }[]> {
    if (side === 'practice' && conversation.kind === 'office') return this.#mail.adminRecipients(tx);
    const patientAccount = side === 'patient' ? await findPatientAccountId(tx, conversation.patientId) : null;
    const ids =
      side === 'patient' ? (patientAccount ? [patientAccount] : []) : await careTeamOf(tx, conversation.patientId);
    const rows = await activeUsersContact(tx, ids);
    return rows.map((r) => ({ email: r.email, language: r.language === 'es' ? ('es' as const) : ('en' as const) }));
  }

  #audit(
    tx: Executor,
    actor: AuditActor,
    url: string | null,
    event: AuditEvent,
    details: Record<string, unknown>,
    level: 'INFO' | 'WARNING' = 'INFO',
  ) {
    return appendAuditEntry(tx, { event, level, actor, url, details });
  }
}

/** The refusal of a file over the limit (the upload route answers it with 413). */
export function attachmentTooLarge(): AppError {
  return new AppError(ERROR_CODES.payloadTooLarge, 'secureMessageMessages.attachmentTooLarge', {
    maxMegabytes: MESSAGE_ATTACHMENT_MAX_BYTES / (1024 * 1024),
  });
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
