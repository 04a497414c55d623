import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOTP_SETUP_CHALLENGE_SECONDS } from '@telehealth/shared';
import type { Auth } from './auth.ts';

/**
 * The half-finished sign-ins: the password was right, a second step remains, and there is no session yet.
 * Each is a row in better-auth's `verifications` (bound to the account, with a deadline) named by a signed
 * httpOnly cookie, so it works only in the browser that typed the password and only for a few minutes.
 *
 * - `two_factor`: better-auth's twoFactor plugin makes it when an enrolled account's password is right
 *   (TWO_FACTOR_CHALLENGE_SECONDS) and spends it when a code is right; this module only reads and discards it.
 * - `two_factor_setup`: ours, for an account whose role must use two-factor (MFA_REQUIRED_ROLES) and has not
 *   set it up (TOTP_SETUP_CHALLENGE_SECONDS): it allows the set-up and nothing else.
 */
export interface Challenge {
  identifier: string;
  userId: string;
}

const TWO_FACTOR_COOKIE = 'two_factor';
const SETUP_COOKIE = 'two_factor_setup';
const SETUP_PREFIX = '2fa-setup-';

export class SignInChallenges {
  readonly #auth: Auth;
  readonly #secret: string;
  readonly #secureCookies: boolean;

  constructor(options: { auth: Auth; secret: string; secureCookies: boolean }) {
    this.#auth = options.auth;
    this.#secret = options.secret;
    this.#secureCookies = options.secureCookies;
  }

  async #cookieName(name: string): Promise<string> {
    return (await this.#auth.$context).createAuthCookie(name).name;
  }

  /** The plugin's code challenge named by the request's cookie, with the raw cookie to hand back to the plugin. */
  async findCodeChallenge(cookies: CookieJar): Promise<(Challenge & { cookieHeader: string }) | null> {
    const name = await this.#cookieName(TWO_FACTOR_COOKIE);
    const raw = cookies[name];
    const challenge = await this.#find(
      raw,
      (identifier) => identifier.startsWith('2fa-') && !identifier.startsWith(SETUP_PREFIX),
    );
    return challenge && raw ? { ...challenge, cookieHeader: `${name}=${encodeURIComponent(raw)}` } : null;
  }

  /** The set-up challenge named by the request's cookie, if it is still valid. */
  async findSetupChallenge(cookies: CookieJar): Promise<Challenge | null> {
    return this.#find(cookies[await this.#cookieName(SETUP_COOKIE)], (identifier) =>
      identifier.startsWith(SETUP_PREFIX),
    );
  }

  /** Starts a set-up challenge for the account; answers the Set-Cookie header that names it. */
  async createSetupChallenge(userId: string): Promise<string> {
    const ctx = await this.#auth.$context;
    const identifier = `${SETUP_PREFIX}${randomBytes(24).toString('base64url')}`;
    await ctx.internalAdapter.createVerificationValue({
      identifier,
      value: userId,
      expiresAt: new Date(Date.now() + TOTP_SETUP_CHALLENGE_SECONDS * 1000),
    });
    return this.#cookie(
      await this.#cookieName(SETUP_COOKIE),
      `${identifier}.${this.#sign(identifier)}`,
      TOTP_SETUP_CHALLENGE_SECONDS,
    );
  }

  /** Ends whichever challenges the request names; answers the Set-Cookie headers that remove their cookies. */
  async discard(cookies: CookieJar): Promise<string[]> {
    const ctx = await this.#auth.$context;
    const found = [await this.findCodeChallenge(cookies), await this.findSetupChallenge(cookies)];
    for (const challenge of found) {
      if (challenge) await ctx.internalAdapter.deleteVerificationByIdentifier(challenge.identifier);
    }
    const headers: string[] = [];
    for (const name of [TWO_FACTOR_COOKIE, SETUP_COOKIE]) {
      const cookieName = await this.#cookieName(name);
      if (cookies[cookieName] !== undefined) headers.push(this.#cookie(cookieName, '', 0));
    }
    return headers;
  }

  /** Ends every pending challenge of an account (its two-factor was reset, or it was refused at sign-in). */
  async discardFor(userId: string): Promise<void> {
    const ctx = await this.#auth.$context;
    await ctx.adapter.deleteMany({
      model: 'verification',
      where: [
        { field: 'value', value: userId },
        { field: 'identifier', operator: 'starts_with', value: '2fa-' },
      ],
    });
  }

  async #find(raw: string | undefined, accepts: (identifier: string) => boolean): Promise<Challenge | null> {
    const identifier = this.#verify(raw);
    if (!identifier || !accepts(identifier)) return null;
    const ctx = await this.#auth.$context;
    const row = await ctx.internalAdapter.findVerificationValue(identifier);
    if (!row || row.expiresAt.getTime() <= Date.now()) return null;
    return { identifier, userId: row.value };
  }

  /** better-auth's signed-cookie format: `value.base64(HMAC-SHA256(secret, value))`. */
  #sign(value: string): string {
    return createHmac('sha256', this.#secret).update(value).digest('base64');
  }

  #verify(raw: string | undefined): string | null {
    if (!raw) return null;
    const dot = raw.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), 'base64');
    const expected = Buffer.from(this.#sign(value), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
  }

  #cookie(name: string, value: string, maxAgeSeconds: number): string {
    const secure = this.#secureCookies ? '; Secure' : '';
    return `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
  }
}

/** The request's cookies by name (as @fastify/cookie parsed them). */
export type CookieJar = Readonly<Record<string, string | undefined>>;
