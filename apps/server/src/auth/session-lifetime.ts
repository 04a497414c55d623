import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { isRole, type CurrentUser, type Role, type SessionEndReason } from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import { ANONYMOUS_ACTOR, appendAuditEntries, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { sessions } from './auth.table.ts';
import type { Auth } from './auth.ts';
import type { CookieJar } from './sign-in-challenges.ts';
import { endAccountSessions, endSessions, type EndedSession } from './sessions.repository.ts';
import { userAccounts } from '../users/users.repository.ts';
import type { SessionUser } from './session-user.ts';
import { NamedStatement } from '../db/named-statement.ts';

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

// Declared in its own file (the caller's scope names it, and this file writes through the scope).
export type { SessionUser };

export interface ActiveSession {
  id: string;
  token: string;
  expiresAt: Date;
  user: SessionUser;
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

interface SessionRow {
  session_id: string;
  expires_at: string;
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  name: string;
  role: string | null;
  is_active: boolean;
}

/**
 * Finds the caller's session and slides its idle deadline (SessionLifetime.resolveSession): the statement of every
 * signed-in request, so a named prepared statement (parsed and planned once per pooled connection).
 */
const RESOLVE_SESSION = new NamedStatement<SessionRow>(
  'session:resolve',
  sql`
      WITH current AS (
        SELECT id, user_id, expires_at, updated_at FROM ${sessions}
        WHERE token = ${sql.placeholder('token')} AND expires_at > now() AND created_at + make_interval(secs => ${sql.placeholder('maxSeconds')}) > now()
      ), slid AS (
        UPDATE ${sessions} s
        SET expires_at = least(now() + make_interval(secs => ${sql.placeholder('idleSeconds')}), s.created_at + make_interval(secs => ${sql.placeholder('maxSeconds')})),
            updated_at = now()
        FROM current
        WHERE s.id = current.id AND current.updated_at <= now() - make_interval(secs => ${sql.placeholder('refreshSeconds')})
        RETURNING s.id, s.expires_at
      )
      SELECT current.id AS session_id, coalesce(slid.expires_at, current.expires_at) AS expires_at,
             u.id, u.email, u.first_name, u.last_name, u.name, u.role, u.is_active
      FROM current LEFT JOIN slid ON slid.id = current.id JOIN ${userAccounts('u')} ON u.id = current.user_id`,
);

/**
 * A session's life after sign-in: the signed cookie, the idle deadline that slides with each request, the
 * maximum age, and the end of sessions whose time is up or whose account was disabled (each recorded).
 * Sign-in (auth.service.ts) starts sessions; this keeps and ends them.
 */
export class SessionLifetime {
  readonly #auth: Auth;
  readonly #db: Database;
  readonly #config: Config;
  /** The auth secret as a KeyObject: the cookie's HMAC key is prepared once, not on every request. */
  readonly #cookieKey: KeyObject;
  #cookieName: string | undefined;

  constructor(options: { auth: Auth; db: Database; config: Config; secret: string }) {
    this.#auth = options.auth;
    this.#db = options.db;
    this.#config = options.config;
    this.#cookieKey = createSecretKey(Buffer.from(options.secret, 'utf8'));
  }

  get idleMs(): number {
    return this.#config.settings.current().sessionIdleMinutes * 60_000;
  }

  /**
   * The idle time-out in use now, in whole seconds (at least one), for a session starting now. A sign-in reads it
   * once and gives it to the cookie and the session's first deadline alike (an administrator may change it).
   */
  idleSecondsNow(): number {
    return Math.max(1, Math.round(this.idleMs / 1000));
  }

  get maxMs(): number {
    return this.#config.sessionMaxHours * 3_600_000;
  }

  async sessionCookieName(): Promise<string> {
    this.#cookieName ??= (await this.#auth.$context).authCookies.sessionToken.name;
    return this.#cookieName;
  }

  async clearCookieHeader(): Promise<string> {
    const secure = this.#config.secureCookies ? '; Secure' : '';
    return `${await this.sessionCookieName()}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`;
  }

  /**
   * Starts a session that better-auth's own sign-in did not (after two-factor was set up first): answers its
   * token and the signed cookie to set.
   */
  async createSession(
    userId: string,
    meta: RequestMeta,
    idleSeconds: number,
  ): Promise<{ token: string; cookie: string }> {
    const ctx = await this.#auth.$context;
    const session = await ctx.internalAdapter.createSession(userId, false, {
      ipAddress: meta.ip ?? '',
      userAgent: meta.userAgent ?? '',
    });
    const secure = this.#config.secureCookies ? '; Secure' : '';
    const signed = `${session.token}.${createHmac('sha256', this.#cookieKey).update(session.token).digest('base64')}`;
    const cookie = `${await this.sessionCookieName()}=${encodeURIComponent(signed)}; Max-Age=${idleSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
    return { token: session.token, cookie };
  }

  /** The id of the session with this token, if there is one. */
  async findSessionId(token: string): Promise<string | null> {
    const [created] = await this.#db.select({ id: sessions.id }).from(sessions).where(eq(sessions.token, token));
    return created?.id ?? null;
  }

  /**
   * The new session's cookie lives as long as the idle time-out in use now (`idleSecondsNow`), not the one
   * better-auth was built with (an administrator may have changed it).
   */
  async withIdleMaxAge(setCookies: string[], idleSeconds: number): Promise<string[]> {
    const sessionCookie = await this.sessionCookieName();
    return setCookies.map((cookie) =>
      cookie.startsWith(`${sessionCookie}=`) ? cookie.replace(/Max-Age=\d+/i, `Max-Age=${idleSeconds}`) : cookie,
    );
  }

  /** A new session's first deadline: the idle time-out in use now, never past the maximum session time. */
  async setFirstDeadline(tx: Executor, token: string, idleSeconds: number): Promise<void> {
    await tx
      .update(sessions)
      .set({
        expiresAt: sql`least(now() + make_interval(secs => ${idleSeconds}), ${sessions.createdAt} + make_interval(secs => ${this.maxMs / 1000}))`,
      })
      .where(eq(sessions.token, token));
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
    const [row] = await RESOLVE_SESSION.run(this.#db, { token, idleSeconds, maxSeconds, refreshSeconds });
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
      FROM ${sessions} s JOIN ${userAccounts('u')} ON u.id = s.user_id
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

  /**
   * Ends every session of an account, in the transaction of the change that ends them (a new role, a
   * deactivation); the caller records the change. Every instance closes the sessions' sockets on the notice.
   */
  endAccountSessions(tx: Executor, accountId: string, reason: SessionEndReason): Promise<EndedSession[]> {
    return endAccountSessions(tx, accountId, reason);
  }

  /** Ends one session (signed out, or replaced by a new sign-in in the same browser) and records it. */
  async endSession(session: ActiveSession, meta: RequestMeta, reason: 'SIGNED_OUT' | 'REPLACED'): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await endSessions(tx, sql`s.id = ${session.id}`, reason);
      await actorScope(actorFor(session, meta), meta.url).audit(tx, 'LOGOUT', {
        reason: reason === 'SIGNED_OUT' ? 'signed out' : 'replaced by a new sign-in',
      });
    });
  }

  /** The cookie is `token.signature`; the signature is an HMAC-SHA256 of the token with the auth secret. */
  #verifyCookie(raw: string | null): string | null {
    if (!raw) return null;
    const dot = raw.lastIndexOf('.');
    if (dot <= 0) return null;
    const token = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), 'base64');
    const expected = createHmac('sha256', this.#cookieKey).update(token).digest();
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
  }
}

/** The signed-in person as a request sees it: the display name from first and last name, else the account's name. */
export function toSessionUser(
  row: { id: string; email: string; firstName: string; lastName: string; name: string },
  role: Role,
): SessionUser {
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ') || row.name;
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName, name, role };
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
