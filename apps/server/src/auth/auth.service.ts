import { eq, sql } from 'drizzle-orm';
import {
  issueMessage,
  ChallengeResponseSchema,
  hasPermission,
  isRole,
  isTotpCode,
  SignInInputSchema,
  type Role,
  type SignInResult,
  type SignInStep,
  messageText,
  type MessageRef,
} from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { signInFailures, twoFactors } from './auth.table.ts';
import type { Auth } from './auth.ts';
import { recoveryCodeHasher, type RecoveryCodeHasher } from './recovery-codes.ts';
import { SignInChallenges } from './sign-in-challenges.ts';
import { findUserByEmail, findUserById, recordSignIn, type UserRow } from '../users/users.repository.ts';
import { endSessions } from './sessions.repository.ts';
import {
  actorFor,
  toCurrentUser,
  toSessionUser,
  type ActiveSession,
  type RequestMeta,
  type SessionLifetime,
} from './session-lifetime.ts';
import { codeWasJustUsed, recordSecondFactorUse, verifySecondFactor } from './second-factor-check.ts';
import { lockedMessage, say, type SignInLockout } from './sign-in-lockout.ts';

// The request's caller and its session live in session-lifetime.ts; named here too, where callers found them.
export { actorFor, toCurrentUser, type ActiveSession, type RequestMeta, type SessionUser } from './session-lifetime.ts';

export interface SignInOutcome {
  result: SignInResult;
  /** Set-Cookie header values to forward to the browser. */
  setCookies: string[];
}

/** A refused sign-in, saying why with a catalogue message (its English in `error`, the spec's field). */
const failure = (message: MessageRef, nextStep: SignInStep | null = null): SignInResult => ({
  success: false,
  user: null,
  error: messageText(message.id, message.params),
  errorMessage: message,
  nextStep,
});

/** A sign-in that needs one more step: the specification's wrapper "fails" with this message and the step. */
const pendingStep = (nextStep: SignInStep): SignInResult => failure(say('messages.additionalStepsRequired'), nextStep);

/** An account whose password was right and that owes a second step (a code, or setting up two-factor). */
export interface ChallengedAccount {
  id: string;
  email: string;
  role: Role;
}

/** How the second step was passed, as recorded in the LOGIN entry. */
type SecondFactor = 'totp' | 'recovery code' | 'totp set-up';

/**
 * Sign-in: the password, the second step (a code, or setting up two-factor), sign-out. The session's life after
 * sign-in is SessionLifetime's and the lockout SignInLockout's: the auth module builds both and hands them to this
 * service and, as `sessionLifetime` and `signInLockout`, to everyone else who needs them.
 */
export class AuthService {
  readonly #auth: Auth;
  readonly #db: Database;
  readonly #config: Config;
  readonly #challenges: SignInChallenges;
  readonly #recoveryCodes: RecoveryCodeHasher;
  readonly #sessions: SessionLifetime;
  readonly #lockout: SignInLockout;

  constructor(options: {
    auth: Auth;
    db: Database;
    config: Config;
    secret: string;
    sessions: SessionLifetime;
    lockout: SignInLockout;
  }) {
    this.#auth = options.auth;
    this.#db = options.db;
    this.#config = options.config;
    this.#challenges = new SignInChallenges({
      auth: options.auth,
      secret: options.secret,
      secureCookies: options.config.secureCookies,
    });
    this.#recoveryCodes = recoveryCodeHasher(options.secret);
    this.#sessions = options.sessions;
    this.#lockout = options.lockout;
  }

  /** Checks email and password, enforces the lockout, creates the session and records it all in the audit trail. */
  async signIn(
    input: { email: unknown; password: unknown },
    meta: RequestMeta,
    current: ActiveSession | null,
  ): Promise<SignInOutcome> {
    const parsed = SignInInputSchema.safeParse(input);
    if (!parsed.success) {
      // The shared schema's own messages, as the sign-in form's own check says them; the first one by its id.
      const problems = parsed.error.issues.map((i) => i.message);
      const first = parsed.error.issues[0];
      const errorMessage = first ? (issueMessage(first) as MessageRef) : null;
      return {
        result: { success: false, user: null, error: problems.join(', '), errorMessage, nextStep: null },
        setCookies: [],
      };
    }
    const { email, password } = parsed.data;
    const anonymous = actorFor(null, meta);

    const addressLimited = await this.#lockout.refuseLimitedAddress(meta, anonymous, { email });
    if (addressLimited) return { result: failure(addressLimited), setCookies: [] };

    const lockedFor = await this.#lockout.lockRemainingMs(email);
    if (lockedFor > 0) {
      const details = { email, reason: 'account locked' };
      await actorScope(anonymous, meta.url).audit(this.#db, 'FAILED_LOGIN', details, { level: 'WARNING' });
      return { result: failure(lockedMessage(lockedFor)), setCookies: [] };
    }

    const response = await this.#signInWithPassword(email, password, meta);
    if (!response) return { result: failure(await this.#lockout.recordFailure(email, meta)), setCookies: [] };

    const body: unknown = response.response;
    const challenged = (body as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect === true;
    const token = hasToken(body) ? body.token : null;
    if (!challenged && !token) throw new Error('better-auth answered a sign-in with neither a session nor a challenge');
    const row = await findUserByEmail(this.#db, email);
    if (!row || !row.isActive || !isRole(row.role)) {
      if (token) await endSessions(this.#db, sql`s.token = ${token}`, 'ACCOUNT_DISABLED');
      // A challenge the plugin may have opened goes too; its cookie is not passed on.
      if (row) await this.#challenges.discardFor(row.id);
      const details = { email, reason: row?.isActive === false ? 'account inactive' : 'no role' };
      const actor = { ...anonymous, userId: row?.id ?? 'anonymous' };
      await actorScope(actor, meta.url).audit(this.#db, 'FAILED_LOGIN', details, { level: 'WARNING' });
      return { result: failure(say('messages.accountDisabled')), setCookies: [] };
    }
    const account: ChallengedAccount = { id: row.id, email, role: row.role };

    // Enrolled: better-auth's twoFactor plugin made no session but a code challenge (its cookie is passed on).
    // The failures are kept until the sign-in is complete, so a right password does not reset the code's count.
    if (challenged || !token) {
      if (current) await this.#sessions.endSession(current, meta, 'REPLACED');
      await this.#recordChallenge(account, 'CONFIRM_SIGN_IN_WITH_TOTP_CODE', meta);
      return { result: pendingStep('CONFIRM_SIGN_IN_WITH_TOTP_CODE'), setCookies: response.headers.getSetCookie() };
    }

    // A role that must use two-factor, not set up yet: no session, only the set-up (sign-in-challenges.ts).
    if (this.#config.settings.current().twoFactorRequiredRoles.includes(row.role) && !row.twoFactorEnabled) {
      await endSessions(this.#db, sql`s.token = ${token}`, 'ENDED');
      if (current) await this.#sessions.endSession(current, meta, 'REPLACED');
      const cookie = await this.#challenges.createSetupChallenge(row.id);
      await this.#recordChallenge(account, 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP', meta);
      return {
        result: pendingStep('CONTINUE_SIGN_IN_WITH_TOTP_SETUP'),
        setCookies: [cookie, ...(current ? [await this.#sessions.clearCookieHeader()] : [])],
      };
    }

    return this.#completeSignIn(row, token, meta, current, response.headers.getSetCookie(), null);
  }

  /**
   * The second step of a sign-in: the code of the authenticator app, or a recovery code (each works once).
   * better-auth's twoFactor plugin checks it against the challenge named by the request's cookie and creates the
   * session; a wrong code counts toward the same lockout as a wrong password.
   */
  async confirmSignIn(
    input: { challengeResponse: unknown },
    meta: RequestMeta,
    current: ActiveSession | null,
  ): Promise<SignInOutcome> {
    const cookies = meta.cookies ?? {};
    const challenge = await this.#challenges.findCodeChallenge(cookies);
    const row = challenge ? await findUserById(this.#db, challenge.userId) : undefined;
    if (!challenge || !row) {
      return {
        result: failure(say('twoFactorMessages.challengeExpired')),
        setCookies: await this.#challenges.discard(cookies),
      };
    }
    const parsed = ChallengeResponseSchema.safeParse(input.challengeResponse);
    if (!parsed.success) {
      return {
        result: failure(say('twoFactorMessages.codeRequired'), 'CONFIRM_SIGN_IN_WITH_TOTP_CODE'),
        setCookies: [],
      };
    }
    const email = row.email;
    const actor = { ...actorFor(null, meta), userId: row.id, userRole: row.role ?? 'unknown' };

    const addressLimited = await this.#lockout.refuseLimitedAddress(meta, actor, {
      email,
      step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    });
    if (addressLimited) return { result: failure(addressLimited), setCookies: [] };

    const lockedFor = await this.#lockout.lockRemainingMs(email);
    if (lockedFor > 0) {
      const details = { email, reason: 'account locked', step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' };
      await actorScope(actor, meta.url).audit(this.#db, 'FAILED_LOGIN', details, { level: 'WARNING' });
      return { result: failure(lockedMessage(lockedFor)), setCookies: [] };
    }

    const response = parsed.data;
    const totp = isTotpCode(response);
    const code = totp ? response.replace(/\s+/g, '') : this.#recoveryCodes.hash(response);
    const outcome = (await codeWasJustUsed(this.#db, row.id, code, totp))
      ? { ok: false as const, reason: 'INVALID_CODE' }
      : await verifySecondFactor(this.#auth, challenge.cookieHeader, code, totp, meta);

    if (!outcome.ok) {
      switch (outcome.reason) {
        case 'INVALID_CODE':
        case 'INVALID_BACKUP_CODE': {
          const message = await this.#lockout.recordFailure(email, meta, {
            reason: 'invalid two-factor code',
            event: 'FAILED_LOGIN',
          });
          const locked = message.id !== 'messages.invalidCredentials';
          return {
            result: locked
              ? failure(message)
              : failure(say('twoFactorMessages.invalidCode'), 'CONFIRM_SIGN_IN_WITH_TOTP_CODE'),
            setCookies: [],
          };
        }
        case 'ACCOUNT_TEMPORARILY_LOCKED': {
          // The plugin's own lock after 10 wrong codes in a row (across challenges), beside ours.
          const [state] = await this.#db
            .select({ lockedUntil: twoFactors.lockedUntil })
            .from(twoFactors)
            .where(eq(twoFactors.userId, row.id));
          const details = { email, reason: 'two-factor locked', step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' };
          await actorScope(actor, meta.url).audit(this.#db, 'FAILED_LOGIN', details, { level: 'WARNING' });
          const remaining = (state?.lockedUntil?.getTime() ?? Date.now()) - Date.now();
          return { result: failure(lockedMessage(remaining)), setCookies: [] };
        }
        default:
          // The challenge was spent, expired, or the account's two-factor was reset meanwhile.
          return {
            result: failure(say('twoFactorMessages.challengeExpired')),
            setCookies: await this.#challenges.discard(cookies),
          };
      }
    }

    await recordSecondFactorUse(this.#db, row, code, totp, actor, meta);
    return this.#completeSignIn(row, outcome.token, meta, current, outcome.setCookies, totp ? 'totp' : 'recovery code');
  }

  /** The account a set-up challenge belongs to (CONTINUE_SIGN_IN_WITH_TOTP_SETUP), if the request names one. */
  async setupChallengeAccount(meta: RequestMeta): Promise<ChallengedAccount | null> {
    const challenge = await this.#challenges.findSetupChallenge(meta.cookies ?? {});
    if (!challenge) return null;
    const row = await findUserById(this.#db, challenge.userId);
    if (!row || !row.isActive || !isRole(row.role)) return null;
    return { id: row.id, email: row.email, role: row.role };
  }

  /**
   * Ends a sign-in that had to set up two-factor first, once it is set up: the set-up challenge goes and the
   * session starts. Answers the sign-in result and the cookies to set.
   */
  async completeSetupSignIn(account: ChallengedAccount, meta: RequestMeta): Promise<SignInOutcome> {
    const row = await findUserById(this.#db, account.id);
    if (!row) throw new Error('the account of a set-up challenge disappeared');
    const idleSeconds = this.#sessions.idleSecondsNow();
    const session = await this.#sessions.createSession(row.id, meta, idleSeconds);
    const cleared = await this.#challenges.discard(meta.cookies ?? {});
    const cookies = [...cleared, session.cookie];
    return this.#completeSignIn(row, session.token, meta, null, cookies, 'totp set-up', idleSeconds);
  }

  /** Records that a password was right and which step remains. */
  async #recordChallenge(account: ChallengedAccount, step: SignInStep, meta: RequestMeta): Promise<void> {
    const actor = { ...actorFor(null, meta), userId: account.id, userRole: account.role };
    await actorScope(actor, meta.url).audit(this.#db, 'TWO_FACTOR_CHALLENGE', { email: account.email, nextStep: step });
  }

  /**
   * The end of every sign-in: the account is active with a role (else the new session goes), an earlier
   * session of this browser ends, the failures are forgotten and the sign-in is recorded. The idle time-out is
   * read once (`idleSeconds`), so the cookie and the session's first deadline always agree.
   */
  async #completeSignIn(
    row: UserRow,
    token: string,
    meta: RequestMeta,
    current: ActiveSession | null,
    setCookies: string[],
    secondFactor: SecondFactor | null,
    idleSeconds = this.#sessions.idleSecondsNow(),
  ): Promise<SignInOutcome> {
    const email = row.email;
    if (!row.isActive || !isRole(row.role)) {
      await endSessions(this.#db, sql`s.token = ${token}`, 'ACCOUNT_DISABLED');
      const details = { email, reason: row.isActive ? 'no role' : 'account inactive' };
      const actor = { ...actorFor(null, meta), userId: row.id };
      await actorScope(actor, meta.url).audit(this.#db, 'FAILED_LOGIN', details, { level: 'WARNING' });
      return {
        result: failure(say('messages.accountDisabled')),
        setCookies: [await this.#sessions.clearCookieHeader()],
      };
    }
    const created = await this.#sessions.findSessionId(token);
    if (current) await this.#sessions.endSession(current, meta, 'REPLACED');
    const user = toSessionUser(row, row.role);
    const cookies = await this.#sessions.withIdleMaxAge(setCookies, idleSeconds);
    await this.#db.transaction(async (tx) => {
      await this.#sessions.setFirstDeadline(tx, token, idleSeconds);
      await tx.delete(signInFailures).where(eq(signInFailures.email, email));
      await recordSignIn(tx, user.id);
      // The new session's own entry; an administrative sign-in (an account that manages others) is told apart.
      const actor = {
        sessionId: created,
        userId: user.id,
        userRole: user.role,
        clientIp: meta.ip,
        userAgent: meta.userAgent,
      };
      await actorScope(actor, meta.url).audit(
        tx,
        hasPermission(user.role, 'user:manage:any') ? 'ADMIN_LOGIN' : 'LOGIN',
        secondFactor ? { email, secondFactor } : { email },
      );
    });
    return {
      result: { success: true, user: toCurrentUser(user), error: null, errorMessage: null, nextStep: 'DONE' },
      setCookies: cookies,
    };
  }

  /** better-auth's credential check and session creation; null when the email or password is wrong. */
  async #signInWithPassword(email: string, password: string, meta: RequestMeta) {
    const headers = new Headers();
    if (meta.ip) headers.set('x-forwarded-for', meta.ip);
    if (meta.userAgent) headers.set('user-agent', meta.userAgent);
    try {
      return await this.#auth.api.signInEmail({ body: { email, password }, headers, returnHeaders: true });
    } catch (error) {
      if (isUnauthorized(error)) return null;
      throw error;
    }
  }

  /** Ends the session on the server (sign-out) and records it; a half-finished sign-in ends too. */
  async signOut(session: ActiveSession | null, meta: RequestMeta): Promise<string[]> {
    if (session) await this.#sessions.endSession(session, meta, 'SIGNED_OUT');
    return [await this.#sessions.clearCookieHeader(), ...(await this.#challenges.discard(meta.cookies ?? {}))];
  }

  /** Ends an account's half-finished sign-ins (its two-factor was turned off or reset). */
  discardChallengesOf(userId: string): Promise<void> {
    return this.#challenges.discardFor(userId);
  }
}

function hasToken(body: unknown): body is { token: string } {
  return typeof (body as { token?: unknown } | null)?.token === 'string';
}

function isUnauthorized(error: unknown): boolean {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status;
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  return status === 'UNAUTHORIZED' || statusCode === 401;
}
