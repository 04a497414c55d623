import { eq } from 'drizzle-orm';
import {
  AcceptInvitationInputSchema,
  INVITATION_VALID_HOURS,
  PASSWORD_RESET_RATE_LIMITS,
  isRole,
  type InvitationStatus,
  type Locale,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller, PublicCaller } from '../access/caller.ts';
import { actorScope } from '../access/scope.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { accessRequests } from '../access-requests/access-requests.table.ts';
import { badUserInput, notFound, parseInput } from '../errors.ts';
import type { MailService } from '../mail/mail.service.ts';
import { invitationMail } from '../mail/account-mails.ts';
import { rateLimited, type RateLimiter } from '../rate-limit/rate-limiter.ts';
import { findTokenByLink, issueAccountToken, markTokenUsed, tokenState } from './account-tokens.ts';
import type { Auth } from './auth.ts';
import { findInvitationStateRows, findUserById } from '../users/users.repository.ts';
import { hashPassword, hasPassword, storePasswordHash } from './passwords.ts';

/** Failed link and code attempts (unknown token, wrong code) per client address share one bucket. */
export const TOKEN_FAILURE_BUCKET = 'account-token-failure';

export interface InvitationState {
  status: InvitationStatus;
  /** Only for a valid invitation: the address to sign in with afterwards. */
  email: string | null;
  expiresAt: Date | null;
}

/** Where an account stands with its invitation, for administrators' screens. */
export interface InvitationInfo {
  /** The account is active and has no password yet: nobody can sign in to it until an invitation is accepted. */
  pending: boolean;
  /** When the newest unused invitation link stops working (possibly past); null when there is none. */
  expiresAt: Date | null;
}

/** Told inside the transaction that an account set its first password through its invitation. */
export type AccountActivatedHook = (tx: Executor, accountId: string) => Promise<void>;

/**
 * Invitations: a single-use link, valid 72 hours, that sets an account's first password. Sent when an
 * administrator approves an access request, or on request for an account that has no password yet.
 */
export class InvitationsService {
  readonly #auth: Auth;
  readonly #db: Database;
  readonly #config: Config;
  readonly #mail: MailService;
  readonly #limiter: RateLimiter;
  readonly #secret: string;

  readonly #acceptedHooks: AccountActivatedHook[] = [];

  constructor(options: {
    auth: Auth;
    db: Database;
    config: Config;
    mail: MailService;
    limiter: RateLimiter;
    secret: string;
  }) {
    this.#auth = options.auth;
    this.#db = options.db;
    this.#config = options.config;
    this.#mail = options.mail;
    this.#limiter = options.limiter;
    this.#secret = options.secret;
  }

  /**
   * Issues an invitation inside the caller's transaction: the token, the mail in the outbox and the audit
   * entry exist exactly when the change that caused them does.
   */
  async issue(
    tx: Executor,
    options: {
      userId: string;
      email: string;
      language: Locale;
      reason: 'approved' | 'added';
      accessRequestId: string | null;
      actor: AuditActor;
      url: string;
    },
  ): Promise<{ invitationId: string; expiresAt: Date }> {
    const { id, token, expiresAt, replaced } = await issueAccountToken(tx, {
      kind: 'invitation',
      userId: options.userId,
      validMs: INVITATION_VALID_HOURS * 3_600_000,
      withCode: false,
      secret: this.#secret,
      accessRequestId: options.accessRequestId,
    });
    // The token travels in the fragment: browsers never send it to a server, so no access log or proxy sees it.
    const link = `${this.#config.publicUrl}/invite#${token}`;
    await this.#mail.enqueue(tx, [
      {
        to: options.email,
        kind: 'invitation',
        language: options.language,
        content: invitationMail(this.#mail.context, options.language, { link, reason: options.reason }),
      },
    ]);
    await actorScope(options.actor, options.url).audit(tx, 'INVITATION_SENT', {
      accountId: options.userId,
      invitationId: id,
      accessRequestId: options.accessRequestId,
      reason: options.reason,
      // Earlier links of the account that stopped working with this one (a resend).
      replacedInvitations: replaced,
    });
    return { invitationId: id, expiresAt };
  }

  /** Whether each of these accounts still waits for its first password, and its newest open link's expiry. */
  async states(tx: Executor, accountIds: readonly string[]): Promise<Map<string, InvitationInfo>> {
    if (accountIds.length === 0) return new Map();
    const rows = await findInvitationStateRows(tx, accountIds);
    return new Map(
      rows.map((row) => [row.id, { pending: row.isActive && !row.hasPassword, expiresAt: row.expiresAt ?? null }]),
    );
  }

  /** What the invitation page should say before asking for a password. */
  async status(token: string): Promise<InvitationState> {
    const row = token.trim() ? await findTokenByLink(this.#db, 'invitation', token.trim(), { lock: false }) : undefined;
    if (!row) return { status: 'invalid', email: null, expiresAt: null };
    const state = tokenState(row);
    if (state !== 'valid')
      return { status: state === 'revoked' ? 'invalid' : state, email: null, expiresAt: row.expiresAt };
    const user = await findUserById(this.#db, row.userId);
    return { status: 'valid', email: user?.email ?? null, expiresAt: row.expiresAt };
  }

  /**
   * Adds a hook told, inside the transaction, that an account set its first password (was activated): other
   * domains queue their work there (the first-visit e-mail, decision 068) without this service knowing them.
   */
  onAccountActivated(hook: AccountActivatedHook): void {
    this.#acceptedHooks.push(hook);
  }

  /** Sets the first password through the link. Does not sign in: the person signs in afterwards, as anyone does. */
  async accept(caller: PublicCaller, input: unknown): Promise<{ email: string }> {
    const data = parseInput(AcceptInvitationInputSchema, input);
    const address = caller.ip ?? 'unknown';
    const scope = actorScope(caller.actor, caller.operation);
    const wait = await this.#limiter.check(
      this.#db,
      TOKEN_FAILURE_BUCKET,
      address,
      PASSWORD_RESET_RATE_LIMITS.failedAttemptsPerAddress,
    );
    if (wait > 0) {
      await scope.audit(this.#db, 'RATE_LIMITED', { bucket: TOKEN_FAILURE_BUCKET }, { level: 'WARNING' });
      throw rateLimited(wait);
    }
    const hash = await hashPassword(this.#auth, data.password);
    const outcome = await this.#db.transaction(async (tx) => {
      const row = await findTokenByLink(tx, 'invitation', data.token, { lock: true });
      const state = row ? tokenState(row) : 'revoked';
      if (!row || state !== 'valid') {
        const reason: 'expired' | 'used' | 'invalid' =
          state === 'expired' ? 'expired' : state === 'used' ? 'used' : 'invalid';
        // An unknown or replaced link counts against the address; a used or expired one is a person, not a guess.
        if (reason === 'invalid') await this.#limiter.record(tx, TOKEN_FAILURE_BUCKET, address);
        await scope.audit(
          tx,
          'INVITATION_FAILED',
          { reason, ...(row ? { accountId: row.userId, invitationId: row.id } : {}) },
          { level: 'WARNING' },
        );
        return { ok: false as const, reason };
      }
      const user = await findUserById(tx, row.userId);
      await storePasswordHash(tx, row.userId, hash);
      await markTokenUsed(tx, row.id);
      // Written as the account whose password it set.
      const owner = { ...caller.actor, userId: row.userId, userRole: user?.role ?? 'unknown' };
      await actorScope(owner, caller.operation).audit(tx, 'INVITATION_ACCEPTED', {
        accountId: row.userId,
        invitationId: row.id,
      });
      for (const hook of this.#acceptedHooks) await hook(tx, row.userId);
      return { ok: true as const, email: user?.email ?? '' };
    });
    if (!outcome.ok) throw badUserInput(`invitationMessages.${outcome.reason}`, { reason: outcome.reason });
    return { email: outcome.email };
  }

  /**
   * Sends a new invitation to an account that has no password yet (an expired invitation, or a provider an
   * administrator added). Earlier invitations of the account stop working.
   */
  async send(caller: Caller, accountId: string): Promise<{ expiresAt: Date }> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId);
    const user = isUuid ? await findUserById(this.#db, accountId) : undefined;
    if (!user) throw notFound('invitationMessages.accountNotFound');
    if (!user.isActive || !isRole(user.role)) throw badUserInput('invitationMessages.accountInactive');
    if (await hasPassword(this.#db, user.id)) throw badUserInput('invitationMessages.alreadyHasPassword');
    const issued = await this.#db.transaction(async (tx) => {
      const [request] = await tx
        .select({ id: accessRequests.id })
        .from(accessRequests)
        .where(eq(accessRequests.accountId, user.id))
        .limit(1);
      return this.issue(tx, {
        userId: user.id,
        email: user.email,
        language: user.language === 'es' ? 'es' : 'en',
        reason: request ? 'approved' : 'added',
        accessRequestId: request?.id ?? null,
        actor: caller.actor,
        url: caller.operation,
      });
    });
    return { expiresAt: issued.expiresAt };
  }
}
