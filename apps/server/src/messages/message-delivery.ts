import { and, eq, isNull, sql } from 'drizzle-orm';
import { rolesWith, type ConversationKind, type MessageSide } from '@telehealth/shared';
import { systemScope, type Scope } from '../access/scope.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { badUserInput } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { MailService } from '../mail/mail.service.ts';
import { messageWaitingMail } from '../mail/templates.ts';
import { findPatientAccountId } from '../patients/patient-accounts.repository.ts';
import type { BlindIndex } from '../search/blind-index.ts';
import { activeUsersContact, findActiveUsersWithRoles } from '../users/users.repository.ts';
import { careTeamOf } from './care-team.ts';
import { claimAttachments } from './message-attachments.repository.ts';
import { insertMessage, markRead, otherSide, touchConversation } from './messages.repository.ts';
import { conversations, messages } from './messages.table.ts';

/** A conversation as its delivery needs it: who is on it. */
export interface ConversationParties {
  id: string;
  patientId: string;
  kind: string;
}

/**
 * A message's delivery (decision 029): written into its conversation in the sender's transaction (attachments
 * claimed, the conversation moved up in every inbox, the other side's messages read), the participants' live
 * channels told at once (ids only), and the other side e-mailed later by the `message:notify` job, once per unread
 * burst and without content. Built by MessagesService.
 */
export class MessageDelivery {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #mail: MailService;
  readonly #config: Config;
  readonly #search: BlindIndex;

  constructor(options: { db: Database; keyring: Keyring; mail: MailService; config: Config; search: BlindIndex }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#mail = options.mail;
    this.#config = options.config;
    this.#search = options.search;
  }

  /**
   * Writes a message in the caller's transaction: its attachments claimed, the conversation moved up and back in
   * every inbox, the other side's messages read (replying is reading), the mail job and the live notices.
   */
  async add(
    tx: Executor,
    scope: Scope,
    conversation: { id: string; patientId: string; kind: ConversationKind },
    side: MessageSide,
    body: string,
    attachmentIds: string[],
  ): Promise<string> {
    const { id: conversationId, patientId } = conversation;
    if (attachmentIds.some((id) => !isUuid(id))) throw badUserInput('secureMessageMessages.attachmentUnavailable');
    const message = await insertMessage(tx, this.#keyring, {
      conversationId,
      senderId: scope.user.id,
      senderSide: side,
      body,
      searchTokens: this.#search.tokensOf([body]),
      searchKeyId: this.#search.keyId,
    });
    const claimed = await claimAttachments(tx, attachmentIds, scope.user.id, message.id);
    if (claimed !== attachmentIds.length) throw badUserInput('secureMessageMessages.attachmentUnavailable');
    await touchConversation(tx, conversationId, message.createdAt);
    await markRead(tx, conversationId, side, scope.user.id);
    await scope.audit(tx, 'MESSAGE_SEND', {
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
    await this.tellParticipants(tx, conversation, { type: 'message-new', conversationId });
    return message.id;
  }

  /** Everyone on the conversation hears of it on their live channel (ids only). */
  async tellParticipants(
    tx: Executor,
    conversation: ConversationParties,
    message: { type: 'message-new' | 'messages-read'; conversationId: string },
  ) {
    await publishToUsers(tx, await this.#participants(tx, conversation), message);
  }

  /**
   * `message:notify`: e-mails one side of a conversation that a message waits, unless it was read by now, or that
   * side was already e-mailed since it last read the conversation (one mail per unread burst). The mail says only
   * that there is a message, with a link to /messages. A job acting as SYSTEM, without a session: its entry is
   * written through `systemScope()`.
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
      await systemScope().audit(tx, 'MESSAGE_NOTIFIED', {
        conversationId,
        side,
        recipients: to.length,
        patientIds: [conversation.patientId],
      });
    });
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
}
