import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import {
  issueMessage,
  ChallengeResponseSchema,
  hasPermission,
  isRole,
  isTotpCode,
  SIGN_IN_ADDRESS_LIMIT,
  SIGN_IN_LOCKOUT,
  SignInInputSchema,
  type CurrentUser,
  type Role,
  type SessionEndReason,
  type SignInResult,
  type SignInStep,
  messageText,
  minutesToWait,
  type MessageId,
  type MessageParams,
  type MessageRef,
} from '@telehealth/shared';
import { ANONYMOUS_ACTOR, appendAuditEntry, appendAuditEntries, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { sessions, signInFailures, twoFactors, users } from './auth.table.ts';
import type { Auth } from './auth.ts';
import { recoveryCodeHasher, type RecoveryCodeHasher } from './recovery-codes.ts';
import { SignInChallenges, type CookieJar } from './sign-in-challenges.ts';
import { findUserByEmail, findUserById, recordSignIn, type UserRow } from '../users/users.repository.ts';
import { endSessions, type EndedSession } from './sessions.repository.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';

/** What the server knows of the caller of one request. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  url: string | null;
  referrer: string | null;
  /** The raw (signed) session cookie value, if the request carried one. */
  sessionCookie: string | null;
  /** Every cookie of the request, for the sign-in challenges (sign-in-challenges.ts); none when absent. */
  cookies?: CookieJar;
}

export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  name: string;
  role: Role;
}

export interface ActiveSession {
  id: string;
  token: string;
  expiresAt: Date;
  user: SessionUser;
}

export interface SignInOutcome {
  result: SignInResult;
  /** Set-Cookie header values to forward to the browser. */
  setCookies: string[];
}

export function toCurrentUser(user: SessionUser): CurrentUser {
  return { userId: user.id, email: user.email, name: user.name, role: user.role, source: 'server' };
}

export function actorFor(session: ActiveSession | null, meta: RequestMeta): AuditActor {
  if (!session) return { ...ANONYMOUS_ACTOR, clientIp: meta.ip, userAgent: meta.userAgent };
  return {
    sessionId: session.id,
    userId: session.user.id,
    userRole: session.user.role,
    clientIp: meta.ip,
    userAgent: meta.userAgent,
  };
}

/** A refused sign-in, saying why with a catalogue message (its English in `error`, the spec's field). */
const failure = (message: MessageRef, nextStep: SignInStep | null = null): SignInResult => ({
  success: false,
  user: null,
  error: messageText(message.id, message.params),
  errorMessage: message,
  nextStep,
});

const say = (id: MessageId, params: MessageParams = {}): MessageRef => ({ id, params });

/** The lockout message for an account locked for `retryAfterMs` more. */
const lockedMessage = (retryAfterMs: number): MessageRef =>
  say('messages.accountLocked', { count: minutesToWait(retryAfterMs) });

/** The rate-limit bucket of failed sign-ins per client address (SIGN_IN_ADDRESS_LIMIT). */
const ADDRESS_FAILURES = 'sign-in-failures:address';

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

export class AuthService {
  readonly #auth: Auth;
  readonly #limiter: RateLimiter;
  readonly #db: Database;
  readonly #config: Config;
  readonly #secret: string;
  readonly #challenges: SignInChallenges;
  readonly #recoveryCodes: RecoveryCodeHasher;
  #cookieName: string | undefined;

  constructor(options: { auth: Auth; db: Database; config: Config; secret: string; limiter: RateLimiter }) {
    this.#auth = options.auth;
    this.#limiter = options.limiter;
    this.#db = options.db;
    this.#config = options.config;
    this.#secret = options.secret;
    this.#challenges = new SignInChallenges({
      auth: options.auth,
      secret: options.secret,
      secureCookies: options.config.secureCookies,
    });
    this.#recoveryCodes = recoveryCodeHasher(options.secret);
  }

  get idleMs(): number {
    return this.#config.settings.current().sessionIdleMinutes * 60_000;
  }

  get maxMs(): number {
    return this.#config.sessionMaxHours * 3_600_000;
  }

  async sessionCookieName(): Promise<string> {
    this.#cookieName ??= (await this.#auth.$context).authCookies.sessionToken.name;
    return this.#cookieName;
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

    const addressLimited = await this.#refuseLimitedAddress(meta, anonymous, { email });
    if (addressLimited) return { result: failure(addressLimited), setCookies: [] };

    const lockedFor = await this.lockRemainingMs(email);
    if (lockedFor > 0) {
      await appendAuditEntry(this.#db, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor: anonymous,
        url: meta.url,
        details: { email, reason: 'account locked' },
      });
      return { result: failure(lockedMessage(lockedFor)), setCookies: [] };
    }

    const response = await this.#signInWithPassword(email, password, meta);
    if (!response) return { result: failure(await this.recordFailure(email, meta)), setCookies: [] };

    const body: unknown = response.response;
    const challenged = (body as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect === true;
    const token = hasToken(body) ? body.token : null;
    if (!challenged && !token) throw new Error('better-auth answered a sign-in with neither a session nor a challenge');
    const row = await findUserByEmail(this.#db, email);
    if (!row || !row.isActive || !isRole(row.role)) {
      if (token) await endSessions(this.#db, sql`s.token = ${token}`, 'ACCOUNT_DISABLED');
      // A challenge the plugin may have opened goes too; its cookie is not passed on.
      if (row) await this.#challenges.discardFor(row.id);
      await appendAuditEntry(this.#db, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor: { ...anonymous, userId: row?.id ?? 'anonymous' },
        url: meta.url,
        details: { email, reason: row?.isActive === false ? 'account inactive' : 'no role' },
      });
      return { result: failure(say('messages.accountDisabled')), setCookies: [] };
    }
    const account: ChallengedAccount = { id: row.id, email, role: row.role };

    // Enrolled: better-auth's twoFactor plugin made no session but a code challenge (its cookie is passed on).
    // The failures are kept until the sign-in is complete, so a right password does not reset the code's count.
    if (challenged || !token) {
      if (current) await this.#endSession(current, meta, 'REPLACED');
      await this.#recordChallenge(account, 'CONFIRM_SIGN_IN_WITH_TOTP_CODE', meta);
      return { result: pendingStep('CONFIRM_SIGN_IN_WITH_TOTP_CODE'), setCookies: response.headers.getSetCookie() };
    }

    // A role that must use two-factor, not set up yet: no session, only the set-up (sign-in-challenges.ts).
    if (this.#config.settings.current().twoFactorRequiredRoles.includes(row.role) && !row.twoFactorEnabled) {
      await endSessions(this.#db, sql`s.token = ${token}`, 'ENDED');
      if (current) await this.#endSession(current, meta, 'REPLACED');
      const cookie = await this.#challenges.createSetupChallenge(row.id);
      await this.#recordChallenge(account, 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP', meta);
      return {
        result: pendingStep('CONTINUE_SIGN_IN_WITH_TOTP_SETUP'),
        setCookies: [cookie, ...(current ? [await this.clearCookieHeader()] : [])],
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

    const addressLimited = await this.#refuseLimitedAddress(meta, actor, {
      email,
      step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    });
    if (addressLimited) return { result: failure(addressLimited), setCookies: [] };

    const lockedFor = await this.lockRemainingMs(email);
    if (lockedFor > 0) {
      await appendAuditEntry(this.#db, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor,
        url: meta.url,
        details: { email, reason: 'account locked', step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' },
      });
      return { result: failure(lockedMessage(lockedFor)), setCookies: [] };
    }

    const response = parsed.data;
    const totp = isTotpCode(response);
    const code = totp ? response.replace(/\s+/g, '') : this.#recoveryCodes.hash(response);
    const outcome = (await this.#codeWasJustUsed(row.id, code, totp))
      ? { ok: false as const, reason: 'INVALID_CODE' }
      : await this.#verifySecondFactor(challenge.cookieHeader, code, totp, meta);

    if (!outcome.ok) {
      switch (outcome.reason) {
        case 'INVALID_CODE':
        case 'INVALID_BACKUP_CODE': {
          const message = await this.recordFailure(email, meta, {
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
          await appendAuditEntry(this.#db, {
            event: 'FAILED_LOGIN',
            level: 'WARNING',
            actor,
            url: meta.url,
            details: { email, reason: 'two-factor locked', step: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' },
          });
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

    if (totp) {
      await this.#db
        .update(twoFactors)
        .set({ lastCodeHash: hashCode(code), lastCodeAt: new Date() })
        .where(eq(twoFactors.userId, row.id));
    } else {
      const [state] = await this.#db
        .select({ backupCodes: twoFactors.backupCodes })
        .from(twoFactors)
        .where(eq(twoFactors.userId, row.id));
      await appendAuditEntry(this.#db, {
        event: 'RECOVERY_CODE_USED',
        level: 'WARNING',
        actor,
        url: meta.url,
        details: { email, recoveryCodesRemaining: countCodes(state?.backupCodes) },
      });
    }
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
    const ctx = await this.#auth.$context;
    const session = await ctx.internalAdapter.createSession(row.id, false, {
      ipAddress: meta.ip ?? '',
      userAgent: meta.userAgent ?? '',
    });
    const cleared = await this.#challenges.discard(meta.cookies ?? {});
    const maxAge = Math.max(1, Math.round(this.idleMs / 1000));
    const secure = this.#config.secureCookies ? '; Secure' : '';
    const signed = `${session.token}.${createHmac('sha256', this.#secret).update(session.token).digest('base64')}`;
    const cookie = `${await this.sessionCookieName()}=${encodeURIComponent(signed)}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
    return this.#completeSignIn(row, session.token, meta, null, [...cleared, cookie], 'totp set-up');
  }

  /** Records that a password was right and which step remains. */
  async #recordChallenge(account: ChallengedAccount, step: SignInStep, meta: RequestMeta): Promise<void> {
    await appendAuditEntry(this.#db, {
      event: 'TWO_FACTOR_CHALLENGE',
      level: 'INFO',
      actor: { ...actorFor(null, meta), userId: account.id, userRole: account.role },
      url: meta.url,
      details: { email: account.email, nextStep: step },
    });
  }

  /** A code is accepted once: the same code again while it is still valid (90 s) counts as wrong. */
  async #codeWasJustUsed(userId: string, code: string, totp: boolean): Promise<boolean> {
    if (!totp) return false;
    const [state] = await this.#db
      .select({ lastCodeHash: twoFactors.lastCodeHash, lastCodeAt: twoFactors.lastCodeAt })
      .from(twoFactors)
      .where(eq(twoFactors.userId, userId));
    return (
      state?.lastCodeHash === hashCode(code) && (state.lastCodeAt?.getTime() ?? 0) > Date.now() - TOTP_REUSE_WINDOW_MS
    );
  }

  /** Asks the plugin to check the code against the challenge; only the challenge's cookie is passed on. */
  async #verifySecondFactor(
    cookieHeader: string,
    code: string,
    totp: boolean,
    meta: RequestMeta,
  ): Promise<{ ok: true; token: string; setCookies: string[] } | { ok: false; reason: string }> {
    // Not the session cookie: with one, the plugin would check the code for that session's account instead.
    const headers = new Headers({ cookie: cookieHeader });
    if (meta.ip) headers.set('x-forwarded-for', meta.ip);
    if (meta.userAgent) headers.set('user-agent', meta.userAgent);
    try {
      const result = totp
        ? await this.#auth.api.verifyTOTP({ body: { code }, headers, returnHeaders: true })
        : await this.#auth.api.verifyBackupCode({ body: { code }, headers, returnHeaders: true });
      // verifyBackupCode leaves the token out only with `disableSession`, which is not asked for.
      const token = result.response.token;
      if (!token) throw new Error('better-auth passed a second factor without creating a session');
      return { ok: true, token, setCookies: result.headers.getSetCookie() };
    } catch (error) {
      const reason = (error as { body?: { code?: unknown } } | null)?.body?.code;
      if (typeof reason === 'string' && KNOWN_TWO_FACTOR_REFUSALS.has(reason)) return { ok: false, reason };
      throw error;
    }
  }

  /**
   * The end of every sign-in: the account is active with a role (else the new session goes), an earlier
   * session of this browser ends, the failures are forgotten and the sign-in is recorded.
   */
  async #completeSignIn(
    row: UserRow,
    token: string,
    meta: RequestMeta,
    current: ActiveSession | null,
    setCookies: string[],
    secondFactor: SecondFactor | null,
  ): Promise<SignInOutcome> {
    const email = row.email;
    if (!row.isActive || !isRole(row.role)) {
      await endSessions(this.#db, sql`s.token = ${token}`, 'ACCOUNT_DISABLED');
      await appendAuditEntry(this.#db, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor: { ...actorFor(null, meta), userId: row.id },
        url: meta.url,
        details: { email, reason: row.isActive ? 'no role' : 'account inactive' },
      });
      return { result: failure(say('messages.accountDisabled')), setCookies: [await this.clearCookieHeader()] };
    }
    const [created] = await this.#db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
    if (current) await this.#endSession(current, meta, 'REPLACED');
    const user = toSessionUser(row, row.role);
    // The idle time-out in use now, not the one better-auth was built with (an administrator may have changed it).
    const idleSeconds = Math.max(1, Math.round(this.idleMs / 1000));
    const sessionCookie = await this.sessionCookieName();
    const cookies = setCookies.map((cookie) =>
      cookie.startsWith(`${sessionCookie}=`) ? cookie.replace(/Max-Age=\d+/i, `Max-Age=${idleSeconds}`) : cookie,
    );
    await this.#db.transaction(async (tx) => {
      await tx
        .update(sessions)
        .set({
          expiresAt: sql`least(now() + make_interval(secs => ${idleSeconds}), ${sessions.createdAt} + make_interval(secs => ${this.maxMs / 1000}))`,
        })
        .where(eq(sessions.token, token));
      await tx.delete(signInFailures).where(eq(signInFailures.email, email));
      await recordSignIn(tx, user.id);
      await appendAuditEntry(tx, {
        // An administrative sign-in: an account that manages other accounts.
        event: hasPermission(user.role, 'user:manage:any') ? 'ADMIN_LOGIN' : 'LOGIN',
        level: 'INFO',
        actor: {
          sessionId: created?.id ?? null,
          userId: user.id,
          userRole: user.role,
          clientIp: meta.ip,
          userAgent: meta.userAgent,
        },
        url: meta.url,
        details: secondFactor ? { email, secondFactor } : { email },
      });
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
    if (session) await this.#endSession(session, meta, 'SIGNED_OUT');
    return [await this.clearCookieHeader(), ...(await this.#challenges.discard(meta.cookies ?? {}))];
  }

  /** Ends an account's half-finished sign-ins (its two-factor was turned off or reset). */
  discardChallengesOf(userId: string): Promise<void> {
    return this.#challenges.discardFor(userId);
  }

  async clearCookieHeader(): Promise<string> {
    const secure = this.#config.secureCookies ? '; Secure' : '';
    return `${await this.sessionCookieName()}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`;
  }

  /**
   * Finds the caller's session and slides its idle deadline, in one statement. The deadline never passes
   * SESSION_MAX_HOURS after sign-in. A session found past its deadline is ended and recorded as expired.
   * The deadline moves in steps of at most 10 seconds (a twentieth of the idle time when that is shorter).
   */
  async resolveSession(meta: RequestMeta): Promise<{ session: ActiveSession | null; expired: boolean }> {
    const token = this.#verifyCookie(meta.sessionCookie);
    if (!token) return { session: null, expired: false };
    const idleSeconds = this.idleMs / 1000;
    const maxSeconds = this.maxMs / 1000;
    // The deadline is written at most once per refresh interval (it moves by that much at most), so most
    // requests only read; a statement that changes no row costs no WAL flush.
    const refreshSeconds = Math.min(10, idleSeconds / 20);
    const result = await this.#db.execute<{
      session_id: string;
      expires_at: string;
      id: string;
      email: string;
      first_name: string;
      last_name: string;
      name: string;
      role: string | null;
      is_active: boolean;
    }>(sql`
      WITH current AS (
        SELECT id, user_id, expires_at, updated_at FROM ${sessions}
        WHERE token = ${token} AND expires_at > now() AND created_at + make_interval(secs => ${maxSeconds}) > now()
      ), slid AS (
        UPDATE ${sessions} s
        SET expires_at = least(now() + make_interval(secs => ${idleSeconds}), s.created_at + make_interval(secs => ${maxSeconds})),
            updated_at = now()
        FROM current
        WHERE s.id = current.id AND current.updated_at <= now() - make_interval(secs => ${refreshSeconds})
        RETURNING s.id, s.expires_at
      )
      SELECT current.id AS session_id, coalesce(slid.expires_at, current.expires_at) AS expires_at,
             u.id, u.email, u.first_name, u.last_name, u.name, u.role, u.is_active
      FROM current LEFT JOIN slid ON slid.id = current.id JOIN ${users} u ON u.id = current.user_id`);
    const row = result.rows[0];
    if (!row) {
      const expired = await this.#expireSessions(sql`s.token = ${token}`, meta);
      return { session: null, expired: expired > 0 };
    }
    if (!row.is_active || !isRole(row.role)) {
      // Deactivated or stripped of its role since sign-in: it gets nothing, starting now.
      await this.#endDisabledSessions([row.session_id], meta);
      return { session: null, expired: false };
    }
    return {
      session: {
        id: row.session_id,
        token,
        expiresAt: new Date(row.expires_at),
        user: toSessionUser(
          { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, name: row.name },
          row.role,
        ),
      },
      expired: false,
    };
  }

  /** The Set-Cookie value that keeps the browser's cookie alive as long as the server session. */
  async refreshCookieHeader(rawCookie: string, session: ActiveSession): Promise<string> {
    const maxAge = Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
    const secure = this.#config.secureCookies ? '; Secure' : '';
    return `${await this.sessionCookieName()}=${encodeURIComponent(rawCookie)}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`;
  }

  /** Ends every session past its deadline and records each as expired (the automatic logoff). */
  sweepExpiredSessions(): Promise<number> {
    return this.#expireSessions(sql`true`, {
      ip: null,
      userAgent: null,
      url: null,
      referrer: null,
      sessionCookie: null,
    });
  }

  /**
   * Looks at sessions this instance holds WebSockets for, without sliding them (socket traffic is not user
   * activity, decision 017), and ends those whose time is up. Answers the ones that are over, with why.
   */
  async reviewSessions(sessionIds: readonly string[]): Promise<Map<string, SessionEndReason>> {
    const over = new Map<string, SessionEndReason>();
    if (sessionIds.length === 0) return over;
    const maxSeconds = this.maxMs / 1000;
    const found = await this.#db.execute<{ id: string; past: boolean; is_active: boolean; role: string | null }>(sql`
      SELECT s.id, u.is_active, u.role,
             s.expires_at <= now() OR s.created_at + make_interval(secs => ${maxSeconds}) <= now() AS past
      FROM ${sessions} s JOIN ${users} u ON u.id = s.user_id
      WHERE s.id = ANY(${sql.param([...sessionIds])}::uuid[])`);
    const byId = new Map(found.rows.map((row) => [row.id, row]));
    const past: string[] = [];
    const disabled: string[] = [];
    for (const id of sessionIds) {
      const row = byId.get(id);
      if (!row) over.set(id, 'ENDED');
      else if (!row.is_active || !isRole(row.role)) disabled.push(id);
      else if (row.past) past.push(id);
    }
    const none: RequestMeta = { ip: null, userAgent: null, url: null, referrer: null, sessionCookie: null };
    if (past.length > 0) {
      await this.#expireSessions(sql`s.id = ANY(${sql.param(past)}::uuid[])`, none);
      for (const id of past) over.set(id, 'EXPIRED');
    }
    if (disabled.length > 0) {
      await this.#endDisabledSessions(disabled, none);
      for (const id of disabled) over.set(id, 'ACCOUNT_DISABLED');
    }
    return over;
  }

  async #expireSessions(where: ReturnType<typeof sql>, meta: RequestMeta): Promise<number> {
    const maxSeconds = this.maxMs / 1000;
    return this.#db.transaction(async (tx) => {
      const expired = await endSessions(
        tx,
        sql`(s.expires_at <= now() OR s.created_at + make_interval(secs => ${maxSeconds}) <= now()) AND (${where})`,
        'EXPIRED',
      );
      await recordEndedSessions(tx, expired, 'SESSION_EXPIRED', 'idle or maximum session time reached', meta);
      return expired.length;
    });
  }

  /** Ends sessions whose account was deactivated or lost its role since sign-in, and records each. */
  async #endDisabledSessions(sessionIds: string[], meta: RequestMeta): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const ended = await endSessions(tx, sql`s.id = ANY(${sql.param(sessionIds)}::uuid[])`, 'ACCOUNT_DISABLED');
      await recordEndedSessions(tx, ended, 'LOGOUT', 'account inactive or without a role', meta);
    });
  }

  async #endSession(session: ActiveSession, meta: RequestMeta, reason: 'SIGNED_OUT' | 'REPLACED'): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await endSessions(tx, sql`s.id = ${session.id}`, reason);
      await appendAuditEntry(tx, {
        event: 'LOGOUT',
        level: 'INFO',
        actor: actorFor(session, meta),
        url: meta.url,
        details: { reason: reason === 'SIGNED_OUT' ? 'signed out' : 'replaced by a new sign-in' },
      });
    });
  }

  /**
   * While the client's address has had too many failed sign-ins (SIGN_IN_ADDRESS_LIMIT), every attempt from it is
   * refused, a right password too: otherwise the limit would still tell a sprayer which guess was right. Answers
   * the message to show, or null when the address may try.
   */
  async #refuseLimitedAddress(
    meta: RequestMeta,
    actor: AuditActor,
    details: { email: string; step?: SignInStep },
  ): Promise<MessageRef | null> {
    if (!meta.ip) return null;
    const wait = await this.#limiter.check(this.#db, ADDRESS_FAILURES, meta.ip, SIGN_IN_ADDRESS_LIMIT);
    if (wait === 0) return null;
    await appendAuditEntry(this.#db, {
      event: 'FAILED_LOGIN',
      level: 'WARNING',
      actor,
      url: meta.url,
      details: { ...details, reason: 'too many failures from this address' },
    });
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
    what: {
      reason: string;
      event:
        | 'FAILED_LOGIN'
        | 'TWO_FACTOR_SETUP_FAILED'
        | 'TWO_FACTOR_DISABLE_FAILED'
        | 'NOTE_SIGN_FAILED'
        // A wrong current password when changing it.
        | 'PASSWORD_CHANGE_FAILED';
      /** Who tried, when known better than "someone with this e-mail" (a signed-in caller). */
      actor?: AuditActor;
    } = { reason: 'invalid credentials', event: 'FAILED_LOGIN' },
  ): Promise<MessageRef> {
    const account = await findUserByEmail(this.#db, email);
    const actor = what.actor ?? {
      ...actorFor(null, meta),
      userId: account?.id ?? 'anonymous',
      userRole: account?.role ?? 'unknown',
    };
    await this.#db.transaction(async (tx) => {
      await tx.insert(signInFailures).values({ email });
      if (meta.ip) await this.#limiter.record(tx, ADDRESS_FAILURES, meta.ip);
      await appendAuditEntry(tx, {
        event: what.event,
        level: 'WARNING',
        actor,
        url: meta.url,
        details: { email, reason: what.reason },
      });
    });
    const lockedFor = await this.lockRemainingMs(email);
    if (lockedFor <= 0) return say('messages.invalidCredentials');
    await appendAuditEntry(this.#db, {
      event: 'ACCOUNT_LOCKED',
      level: 'WARNING',
      actor,
      url: meta.url,
      details: { email, failedAttempts: SIGN_IN_LOCKOUT.maxAttempts, lockedForSeconds: Math.ceil(lockedFor / 1000) },
    });
    return lockedMessage(lockedFor);
  }

  /** The cookie is `token.signature`; the signature is an HMAC-SHA256 of the token with the auth secret. */
  #verifyCookie(raw: string | null): string | null {
    if (!raw) return null;
    const dot = raw.lastIndexOf('.');
    if (dot <= 0) return null;
    const token = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), 'base64');
    const expected = createHmac('sha256', this.#secret).update(token).digest();
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
  }
}

function toSessionUser(
  row: { id: string; email: string; firstName: string; lastName: string; name: string },
  role: Role,
): SessionUser {
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ') || row.name;
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, name, role };
}

/** The plugin's refusals of a code that are answered to the person (anything else is unexpected). */
const KNOWN_TWO_FACTOR_REFUSALS = new Set([
  'INVALID_CODE',
  'INVALID_BACKUP_CODE',
  'ACCOUNT_TEMPORARILY_LOCKED',
  'INVALID_TWO_FACTOR_COOKIE',
  'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
  'TOTP_NOT_ENABLED',
  'BACKUP_CODES_NOT_ENABLED',
]);

/** A code stays valid for its 30-second step and one on either side. */
const TOTP_REUSE_WINDOW_MS = 90_000;

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** The number of codes left in the stored list. */
function countCodes(stored: string | undefined): number {
  try {
    const codes = JSON.parse(stored ?? '[]') as unknown;
    return Array.isArray(codes) ? codes.length : 0;
  } catch {
    return 0;
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

/** One audit entry per session the server ended on its own (expiry, a disabled account), in its transaction. */
function recordEndedSessions(
  tx: Executor,
  ended: readonly EndedSession[],
  event: 'SESSION_EXPIRED' | 'LOGOUT',
  reason: string,
  meta: RequestMeta,
): Promise<void> {
  return appendAuditEntries(
    tx,
    ended.map((row) => ({
      event,
      level: 'INFO' as const,
      actor: {
        sessionId: row.id,
        userId: row.userId,
        userRole: row.role ?? 'unknown',
        clientIp: meta.ip,
        userAgent: meta.userAgent,
      },
      url: meta.url,
      details: { reason },
    })),
  );
}
