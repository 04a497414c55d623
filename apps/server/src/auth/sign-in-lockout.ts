import { and, eq, gt } from 'drizzle-orm';
import {
  SIGN_IN_ADDRESS_LIMIT,
  SIGN_IN_LOCKOUT,
  minutesToWait,
  type MessageId,
  type MessageParams,
  type MessageRef,
  type SignInStep,
} from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { signInFailures } from './auth.table.ts';
import { actorFor, type RequestMeta } from './session-lifetime.ts';

export const say = (id: MessageId, params: MessageParams = {}): MessageRef => ({ id, params });

/** The lockout message for an account locked for `retryAfterMs` more. */
export const lockedMessage = (retryAfterMs: number): MessageRef =>
  say('messages.accountLocked', { count: minutesToWait(retryAfterMs) });

/** The rate-limit bucket of failed sign-ins per client address (SIGN_IN_ADDRESS_LIMIT). */
const ADDRESS_FAILURES = 'sign-in-failures:address';

/** A failed attempt to record: why, under which audit event, and by whom when known. */
export interface FailedAttempt {
  reason: string;
  event:
    | 'FAILED_LOGIN'
    | 'TWO_FACTOR_SETUP_FAILED'
    | 'TWO_FACTOR_DISABLE_FAILED'
    | 'NOTE_SIGN_FAILED'
    | 'TREATMENT_PLAN_SIGN_FAILED'
    // A wrong current password when changing it.
    | 'PASSWORD_CHANGE_FAILED';
  /** Who tried, when known better than "someone with this e-mail" (a signed-in caller). */
  actor?: AuditActor;
}

/**
 * The sign-in lockout (SIGN_IN_LOCKOUT: failures per e-mail) and the limit per client address
 * (SIGN_IN_ADDRESS_LIMIT). Every wrong password or code counts, wherever it was asked: sign-in, two-factor, a
 * password change, signing a note.
 */
export class SignInLockout {
  readonly #db: Database;
  readonly #limiter: RateLimiter;

  constructor(options: { db: Database; limiter: RateLimiter }) {
    this.#db = options.db;
    this.#limiter = options.limiter;
  }

  /**
   * While the client's address has had too many failed sign-ins (SIGN_IN_ADDRESS_LIMIT), every attempt from it is
   * refused, a right password too: otherwise the limit would still tell a sprayer which guess was right. Answers
   * the message to show, or null when the address may try.
   */
  async refuseLimitedAddress(
    meta: RequestMeta,
    actor: AuditActor,
    details: { email: string; step?: SignInStep },
  ): Promise<MessageRef | null> {
    if (!meta.ip) return null;
    const wait = await this.#limiter.check(this.#db, ADDRESS_FAILURES, meta.ip, SIGN_IN_ADDRESS_LIMIT);
    if (wait === 0) return null;
    await actorScope(actor, meta.url).audit(
      this.#db,
      'FAILED_LOGIN',
      { ...details, reason: 'too many failures from this address' },
      { level: 'WARNING' },
    );
    return say('messages.tooManyRequests', { count: minutesToWait(wait) });
  }

  /** How long sign-in for this e-mail stays locked (0: not locked). */
  async lockRemainingMs(email: string): Promise<number> {
    const since = new Date(Date.now() - SIGN_IN_LOCKOUT.windowMs);
    const recent = await this.#db
      .select({ failedAt: signInFailures.failedAt })
      .from(signInFailures)
      .where(and(eq(signInFailures.email, email), gt(signInFailures.failedAt, since)))
      .orderBy(signInFailures.failedAt);
    if (recent.length < SIGN_IN_LOCKOUT.maxAttempts) return 0;
    // Locked for the rest of the window that the failures opened.
    const first = recent[recent.length - SIGN_IN_LOCKOUT.maxAttempts];
    return first ? first.failedAt.getTime() + SIGN_IN_LOCKOUT.windowMs - Date.now() : 0;
  }

  /**
   * Records a failed attempt (a wrong password, or a wrong code: `reason`); answers the message to show: the
   * lock's once it starts, else `messages.invalidCredentials`.
   */
  async recordFailure(
    email: string,
    meta: RequestMeta,
    what: FailedAttempt = { reason: 'invalid credentials', event: 'FAILED_LOGIN' },
  ): Promise<MessageRef> {
    const account = await findUserByEmail(this.#db, email);
    const actor = what.actor ?? {
      ...actorFor(null, meta),
      userId: account?.id ?? 'anonymous',
      userRole: account?.role ?? 'unknown',
    };
    const scope = actorScope(actor, meta.url);
    await this.#db.transaction(async (tx) => {
      await tx.insert(signInFailures).values({ email });
      if (meta.ip) await this.#limiter.record(tx, ADDRESS_FAILURES, meta.ip);
      await scope.audit(tx, what.event, { email, reason: what.reason }, { level: 'WARNING' });
    });
    const lockedFor = await this.lockRemainingMs(email);
    if (lockedFor <= 0) return say('messages.invalidCredentials');
    await scope.audit(
      this.#db,
      'ACCOUNT_LOCKED',
      { email, failedAttempts: SIGN_IN_LOCKOUT.maxAttempts, lockedForSeconds: Math.ceil(lockedFor / 1000) },
      { level: 'WARNING' },
    );
    return lockedMessage(lockedFor);
  }
}
