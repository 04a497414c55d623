import type { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import {
  ConversationFilterSchema,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  SendMessageInputSchema,
  StartConversationInputSchema,
  type ConversationKind,
  type MessageSide,
} from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { SealedBlobs } from '../blobs/sealed-blobs.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { fieldError, notFound, parseInput } from '../errors.ts';
import type { DownloadableFile } from '../http/encrypted-files.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import { conversationsEncrypted, messagesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { MailService } from '../mail/mail.service.ts';
import { findPatientWithAccount } from '../patients/patient-accounts.repository.ts';
import { BlindIndex, MESSAGES_SEARCH_PURPOSE } from '../search/blind-index.ts';
import { careTeamOf } from './care-team.ts';
import { ConversationAccess, type MessageRecipient } from './conversation-access.ts';
import { MessageAttachments } from './message-attachments.ts';
import { MessageDelivery } from './message-delivery.ts';
import {
  countUnread,
  findConversation,
  insertConversation,
  listConversationsPage,
  markRead,
  messagesOf,
  setArchived,
  sideOf,
  type AttachmentInfo,
  type ConversationReach,
  type ConversationRecord,
  type MessageRecord,
} from './messages.repository.ts';
import { conversations, messages } from './messages.table.ts';

export type { MessageRecipient };

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

/**
 * Secure messages (decision 029). Every operation asks the access checkpoint for the caller's reach first; a
 * conversation or attachment out of reach answers like a missing one, and an attempt on an existing one is
 * recorded after the transaction. Every read and send is audited with the patient in `details.patientIds`, in
 * the same transaction; the participants' live channels hear of new messages and reads (ids only). The
 * conversations are here; who reaches them in `conversation-access.ts`, a message's delivery (live notices, the
 * mail job) in `message-delivery.ts`, the files in `message-attachments.ts`.
 */
export class MessagesService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #cursors: CursorCodec<readonly [string, string]>;
  readonly #search: BlindIndex;
  readonly #access: ConversationAccess;
  readonly #delivery: MessageDelivery;
  readonly #attachments: MessageAttachments;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    secret: string;
    mail: MailService;
    config: Config;
    blobs: SealedBlobs;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#cursors = new CursorCodec(`${options.secret}:conversations`, 2);
    this.#search = new BlindIndex(options.secret, MESSAGES_SEARCH_PURPOSE);
    this.#access = new ConversationAccess(options);
    this.#delivery = new MessageDelivery({ ...options, search: this.#search });
    this.#attachments = new MessageAttachments({ ...options, access: this.#access });
  }

  async list(caller: Caller, args: { limit?: number | null; nextToken?: string | null; filter?: unknown }) {
    const reach = await this.#access.reach(caller);
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
      await scopeOf(this.#db, caller).audit(tx, 'MESSAGE_LIST_VIEW', {
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
    const reach = await this.#access.reach(caller);
    const record = await this.#access.find(caller, 'message:read', id, reach);
    return this.#db.transaction(async (tx) => {
      const thread = await messagesOf(tx, this.#keyring, id);
      await scopeOf(this.#db, caller).audit(tx, 'MESSAGE_THREAD_VIEW', {
        conversationId: id,
        messages: thread.length,
        patientIds: [record.conversation.patientId],
      });
      return this.#view(caller, reach, record, thread);
    });
  }

  /** The caller's unread messages (the header's badge). A count, no content: not audited. */
  async unreadCount(caller: Caller): Promise<number> {
    return countUnread(this.#db, await this.#access.reach(caller), caller.user.id);
  }

  /** Whom the caller may start a conversation with (the new conversation dialog's picker). */
  recipients(caller: Caller, search?: string | null): Promise<MessageRecipient[]> {
    return this.#access.recipients(caller, search);
  }

  /** A new conversation with its first message. */
  async start(caller: Caller, input: unknown): Promise<ConversationView> {
    const data = parseInput(StartConversationInputSchema, input);
    const scope = scopeOf(this.#db, caller);
    const reach = await this.#access.sendReach(caller, data.kind);
    const patientId = data.patientId;
    if (reach.kind === 'patient' && data.kind === 'office') {
      // Writing to the office about a record not one's own would be writing as the office: decided before the
      // record is looked up, so the answer says nothing of whether it exists.
      const own =
        isUuid(patientId) && (await findPatientWithAccount(this.#db, patientId))?.accountId === reach.accountId;
      if (!own) await scope.reach('message:office');
    }
    const patient = await scope.find('message:send', patientId, {
      load: async (db) => {
        const found = await findPatientWithAccount(db, patientId);
        return found && { ...found, careTeam: data.kind === 'clinical' ? await careTeamOf(db, found.id) : [] };
      },
      within: (found) =>
        reach.kind === 'patient'
          ? found.accountId === reach.accountId
          : reach.kind === 'careTeam'
            ? found.careTeam.includes(reach.providerId)
            : data.kind === 'office',
      missing: () => fieldError('patientId', 'secureMessageMessages.recipientNotYours'),
      denial: (found) => ({ patientIds: [found.id] }),
    });
    if (!patient.accountId) throw fieldError('patientId', 'secureMessageMessages.noPortalAccount');
    // A clinical conversation needs someone on the care team to read it (a patient without a provider writes to the office).
    if (data.kind === 'clinical' && patient.careTeam.length === 0) {
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
      await scope.audit(tx, 'CONVERSATION_START', { conversationId, kind: data.kind, patientIds: [patient.id] });
      const conversation = { id: conversationId, patientId: patient.id, kind: data.kind };
      await this.#delivery.add(tx, scope, conversation, side, data.body, data.attachmentIds);
      await recordIdempotencyKey(tx, caller, conversationId);
      return conversationId;
    });
    return this.get(caller, id);
  }

  /** A message in a conversation the caller reaches. */
  async send(caller: Caller, input: unknown): Promise<MessageView> {
    const data = parseInput(SendMessageInputSchema, input);
    const scope = scopeOf(this.#db, caller);
    const reach = await this.#access.sendReach(caller);
    const messageId = await scope.transaction(async (tx, scoped) => {
      // Locked: two messages at once are ordered, and the mail job sees both.
      const { conversation } = await scoped.find(
        'message:send',
        data.conversationId,
        this.#access.spec(caller, data.conversationId, reach, { lock: true }),
      );
      const id = await this.#delivery.add(
        tx,
        scope,
        { id: conversation.id, patientId: conversation.patientId, kind: conversation.kind as ConversationKind },
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
    const reach = await this.#access.reach(caller);
    const record = await this.#access.find(caller, 'message:read', id, reach);
    const side = sideOf(reach);
    await this.#db.transaction(async (tx) => {
      const marked = await markRead(tx, id, side, caller.user.id);
      if (marked.length === 0) return;
      await scopeOf(this.#db, caller).audit(tx, 'MESSAGE_READ', {
        conversationId: id,
        messageIds: marked,
        patientIds: [record.conversation.patientId],
      });
      await this.#delivery.tellParticipants(tx, record.conversation, { type: 'messages-read', conversationId: id });
    });
    return this.#reload(caller, reach, id);
  }

  /** Archives (or brings back) a conversation for the caller only. */
  async archive(caller: Caller, id: string, archived: boolean): Promise<ConversationView> {
    const reach = await this.#access.reach(caller);
    const record = await this.#access.find(caller, 'message:read', id, reach);
    await this.#db.transaction(async (tx) => {
      await setArchived(tx, id, caller.user.id, archived);
      await scopeOf(this.#db, caller).audit(tx, 'CONVERSATION_ARCHIVE', {
        conversationId: id,
        archived,
        patientIds: [record.conversation.patientId],
      });
      // The caller's other tabs update their list and badge.
      await publishToUsers(tx, [caller.user.id], { type: 'messages-read', conversationId: id });
    });
    return this.#reload(caller, reach, id);
  }

  // Attachments (message-attachments.ts) -----------------------------------------------------------------

  /** Keeps an uploaded file, encrypted, until a message carries it; its type is the one its content shows. */
  uploadAttachment(caller: Caller, file: { body: Readable; fileName: string }): Promise<AttachmentInfo> {
    return this.#attachments.upload(caller, file);
  }

  /** An attachment to send, for the participants of its conversation (and its uploader before it is sent). */
  downloadAttachment(caller: Caller, id: string): Promise<AttachmentInfo & DownloadableFile> {
    return this.#attachments.download(caller, id);
  }

  // Jobs ---------------------------------------------------------------------------------------------------

  /** `message:notify`: e-mails one side of a conversation that a message waits (message-delivery.ts). */
  notify(conversationId: string, side: MessageSide): Promise<void> {
    return this.#delivery.notify(conversationId, side);
  }

  /** `message-attachments:prune`: deletes the attachments uploaded but never sent. */
  pruneUnsentAttachments(): Promise<number> {
    return this.#attachments.pruneUnsent();
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
}
