import { eq } from 'drizzle-orm';
import { seesRecordPart, type ConversationKind } from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import { scopeOf, type FindByReach } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findLinkedPatientsWithProvider, findPatientsWithAccount } from '../patients/patient-accounts.repository.ts';
import { findConversation, type ConversationReach, type ConversationRecord } from './messages.repository.ts';
import { conversations } from './messages.table.ts';
import { containsPattern } from '../db/like.ts';

/** Whom a caller may start a conversation with: a patient's care team, or the office, or one of their patients. */
export interface MessageRecipient {
  patientId: string;
  kind: ConversationKind;
  /** The provider (for a patient), the patient (for the practice), or null for the office. */
  name: string | null;
}

const RECIPIENTS_LIMIT = 50;

/**
 * Who reaches which conversations (decision 029): the caller's reach to read them or to write in them
 * (administrators the office's, providers their care teams', patients their own), one conversation found within
 * it through the scope, and whom the caller may start a conversation with. Shared by the conversations
 * (`messages.service.ts`) and their attachments.
 */
export class ConversationAccess {
  readonly #db: Database;
  readonly #keyring: Keyring;

  constructor(options: { db: Database; keyring: Keyring }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
  }

  /** The conversations the caller reads: administrators the office's; providers and patients their own. */
  async reach(caller: Caller): Promise<ConversationReach> {
    const scope = scopeOf(this.#db, caller);
    if (seesRecordPart(caller.user.role, 'message:office-inbox')) {
      await scope.reach('message:office');
      return { kind: 'office' };
    }
    return ownReach(await scope.reach('message:read'));
  }

  /** As `reach`, for writing: also checks the send permission (and, for a new conversation, its kind). */
  async sendReach(caller: Caller, kind?: ConversationKind): Promise<ConversationReach> {
    const scope = scopeOf(this.#db, caller);
    if (seesRecordPart(caller.user.role, 'message:office-inbox')) {
      // Administrators answer the office's conversations; a clinical one is not theirs to start.
      if (kind === 'clinical') await scope.reach('message:send');
      await scope.reach('message:office');
      return { kind: 'office' };
    }
    const reach = ownReach(await scope.reach('message:send'));
    // A provider writes clinical conversations; the office's are the administrators'.
    if (kind === 'office' && reach.kind === 'careTeam') await scope.reach('message:office');
    return reach;
  }

  /** Whom the caller may start a conversation with (the new conversation dialog's picker). */
  async recipients(caller: Caller, search?: string | null): Promise<MessageRecipient[]> {
    const reach = await this.sendReach(caller);
    const term = search?.trim().slice(0, 100) ?? '';
    let recipients: MessageRecipient[];
    if (reach.kind === 'patient') {
      const rows = await findLinkedPatientsWithProvider(this.#db, reach.accountId);
      recipients = rows.flatMap((row) => [
        ...(row.providerName ? [{ patientId: row.id, kind: 'clinical' as const, name: row.providerName }] : []),
        { patientId: row.id, kind: 'office' as const, name: null },
      ]);
    } else {
      const rows = await findPatientsWithAccount(this.#db, {
        careTeamOf: reach.kind === 'careTeam' ? reach.providerId : undefined,
        pattern: term ? containsPattern(term) : null,
        limit: RECIPIENTS_LIMIT,
      });
      const kind: ConversationKind = reach.kind === 'careTeam' ? 'clinical' : 'office';
      recipients = rows.map((r) => ({ patientId: r.id, kind, name: `${r.firstName} ${r.lastName}` }));
    }
    if (reach.kind !== 'patient') {
      await scopeOf(this.#db, caller).audit(this.#db, 'MESSAGE_LIST_VIEW', {
        purpose: 'recipients',
        patientIds: recipients.map((r) => r.patientId),
      });
    }
    return recipients;
  }

  /** The conversation if the caller reaches it; otherwise not found (see `spec`). */
  find(
    caller: Caller,
    action: 'message:read' | 'message:send',
    id: string,
    reach: ConversationReach,
  ): Promise<ConversationRecord> {
    return scopeOf(this.#db, caller).find(action, id, this.spec(caller, id, reach));
  }

  /**
   * How the scope finds a conversation. Out of reach, it answers like a missing one, whatever the reason (another
   * patient's, another care team's, or a kind the caller's role never reads: a clinical one for an administrator,
   * the office's for a provider), so that no answer tells an id that exists from one that does not; the attempt on
   * an existing one is recorded with its kind. `lock`: the conversation locked for the transaction.
   */
  spec(
    caller: Caller,
    id: string,
    reach: ConversationReach,
    options: { lock?: boolean } = {},
  ): FindByReach<ConversationRecord, { kind: string }> {
    return {
      read: (db) => findConversation(db, this.#keyring, id, reach, caller.user.id, options),
      exists: async (db) => {
        const [existing] = await db
          .select({ kind: conversations.kind })
          .from(conversations)
          .where(eq(conversations.id, id));
        return existing;
      },
      missing: 'secureMessageMessages.notFound',
      denial: (existing) => ({ conversationIds: [id], kind: existing.kind }),
    };
  }
}

function ownReach(reach: Reach<'message'>): ConversationReach {
  if (reach.kind === 'any') throw new Error('message:read:any is granted to nobody (decision 029)');
  return reach.field === 'patientAccountId'
    ? { kind: 'patient', accountId: reach.callerId }
    : { kind: 'careTeam', providerId: reach.callerId };
}
