import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import {
  accountLockedMessage,
  isRole,
  MESSAGES,
  SIGN_IN_LOCKOUT,
  SignInInputSchema,
  type CurrentUser,
  type Role,
  type SignInResult,
} from '@telehealth/shared';
import { ANONYMOUS_ACTOR, appendAuditEntry, appendAuditEntries, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { sessions, signInFailures, users } from '../db/schema.ts';
import type { Auth } from './auth.ts';

/** What the server knows of the caller of one request. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  url: string | null;
  referrer: string | null;
  /** The raw (signed) session cookie value, if the request carried one. */
  sessionCookie: string | null;
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

const failure = (error: string): SignInResult => ({ success: false, user: null, error, nextStep: null });

export class AuthService {
  readonly #auth: Auth;
  readonly #db: Database;
  readonly #config: Config;
  readonly #secret: string;
  #cookieName: string | undefined;

  constructor(options: { auth: Auth; db: Database; config: Config; secret: string }) {
    this.#auth = options.auth;
    this.#db = options.db;
    this.#config = options.config;
    this.#secret = options.secret;
  }

  get idleMs(): number {
    return this.#config.sessionIdleMinutes * 60_000;
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
      return { result: failure(parsed.error.issues.map((i) => i.message).join(', ')), setCookies: [] };
    }
    const { email, password } = parsed.data;
    const anonymous = actorFor(null, meta);

    const lockedFor = await this.#lockRemainingMs(email);
    if (lockedFor > 0) {
      await appendAuditEntry(this.#db, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor: anonymous,
        url: meta.url,
        details: { email, reason: 'account locked' },
      });
      return { result: failure(accountLockedMessage(lockedFor)), setCookies: [] };
    }

    const response = await this.#signInWithPassword(email, password, meta);
    if (!response) return { result: failure(await this.#recordFailure(email, meta)), setCookies: [] };

    const token = response.response.token;
    const [row] = await this.#db.select().from(users).where(eq(users.email, email)).limit(1);
    if (!row || !row.isActive || !isRole(row.role)) {
      await this.#db.delete(sessions).where(eq(sessions.token, token));
      await appendAuditEntry(this.#db, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor: { ...anonymous, userId: row?.id ?? 'anonymous' },
        url: meta.url,
        details: { email, reason: row?.isActive === false ? 'account inactive' : 'no role' },
      });
      return { result: failure(MESSAGES.accountDisabled), setCookies: [] };
    }

    const [created] = await this.#db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
    if (current) await this.#endSession(current, meta, 'replaced by a new sign-in');
    const user = toSessionUser(row, row.role);
    await this.#db.transaction(async (tx) => {
      await tx.delete(signInFailures).where(eq(signInFailures.email, email));
      await appendAuditEntry(tx, {
        event: user.role === 'admin' ? 'ADMIN_LOGIN' : 'LOGIN',
        level: 'INFO',
        actor: {
          sessionId: created?.id ?? null,
          userId: user.id,
          userRole: user.role,
          clientIp: meta.ip,
          userAgent: meta.userAgent,
        },
        url: meta.url,
        details: { email },
      });
    });
    return {
      result: { success: true, user: toCurrentUser(user), error: null, nextStep: 'DONE' },
      setCookies: response.headers.getSetCookie(),
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

  /** Ends the session on the server (sign-out) and records it. */
  async signOut(session: ActiveSession | null, meta: RequestMeta): Promise<string[]> {
    if (session) await this.#endSession(session, meta, 'signed out');
    return [await this.clearCookieHeader()];
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
      await this.#db.delete(sessions).where(eq(sessions.id, row.session_id));
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

  async #expireSessions(where: ReturnType<typeof sql>, meta: RequestMeta): Promise<number> {
    const maxSeconds = this.maxMs / 1000;
    return this.#db.transaction(async (tx) => {
      const expired = await tx.execute<{ id: string; user_id: string; role: string | null }>(sql`
        DELETE FROM ${sessions} s USING ${users} u
        WHERE u.id = s.user_id AND (s.expires_at <= now() OR s.created_at + make_interval(secs => ${maxSeconds}) <= now())
          AND (${where})
        RETURNING s.id, s.user_id, u.role`);
      await appendAuditEntries(
        tx,
        expired.rows.map((row) => ({
          event: 'SESSION_EXPIRED' as const,
          level: 'INFO' as const,
          actor: {
            sessionId: row.id,
            userId: row.user_id,
            userRole: row.role ?? 'unknown',
            clientIp: meta.ip,
            userAgent: meta.userAgent,
          },
          url: meta.url,
          details: { reason: 'idle or maximum session time reached' },
        })),
      );
      return expired.rows.length;
    });
  }

  async #endSession(session: ActiveSession, meta: RequestMeta, reason: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx.delete(sessions).where(eq(sessions.id, session.id));
      await appendAuditEntry(tx, {
        event: 'LOGOUT',
        level: 'INFO',
        actor: actorFor(session, meta),
        url: meta.url,
        details: { reason },
      });
    });
  }

  async #lockRemainingMs(email: string): Promise<number> {
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

  /** Records a failed attempt; answers the message to show, which names the lock once it starts. */
  async #recordFailure(email: string, meta: RequestMeta): Promise<string> {
    const [account] = await this.#db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.email, email));
    const actor = { ...actorFor(null, meta), userId: account?.id ?? 'anonymous', userRole: account?.role ?? 'unknown' };
    await this.#db.transaction(async (tx) => {
      await tx.insert(signInFailures).values({ email });
      await appendAuditEntry(tx, {
        event: 'FAILED_LOGIN',
        level: 'WARNING',
        actor,
        url: meta.url,
        details: { email, reason: 'invalid credentials' },
      });
    });
    const lockedFor = await this.#lockRemainingMs(email);
    if (lockedFor <= 0) return MESSAGES.invalidCredentials;
    await appendAuditEntry(this.#db, {
      event: 'ACCOUNT_LOCKED',
      level: 'WARNING',
      actor,
      url: meta.url,
      details: { email, failedAttempts: SIGN_IN_LOCKOUT.maxAttempts, lockedForSeconds: Math.ceil(lockedFor / 1000) },
    });
    return accountLockedMessage(lockedFor);
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

function isUnauthorized(error: unknown): boolean {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status;
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  return status === 'UNAUTHORIZED' || statusCode === 401;
}
