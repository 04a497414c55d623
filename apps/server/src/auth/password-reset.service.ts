import { eq } from 'drizzle-orm';
import {
  isRole,
  PASSWORD_RESET_MAX_CODE_ATTEMPTS,
  PASSWORD_RESET_MESSAGES,
  PASSWORD_RESET_RATE_LIMITS,
  PASSWORD_RESET_VALID_MINUTES,
  RequestPasswordResetInputSchema,
  ResetPasswordInputSchema,
  type Locale,
} from '@telehealth/shared';
import type { PublicCaller } from '../access/caller.ts';
import { actorScope } from '../access/scope.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { signInFailures } from './auth.table.ts';
import { badUserInput, parseInput } from '../errors.ts';
import type { MailService } from '../mail/mail.service.ts';
import { passwordResetMail } from '../mail/account-mails.ts';
import { rateLimited, type RateLimiter } from '../rate-limit/rate-limiter.ts';
import {
  codeMatches,
  findLatestOpenToken,
  findTokenByLink,
  issueAccountToken,
  markTokenUsed,
  recordWrongCode,
  revokeAccountTokens,
  tokenState,
  type AccountTokenRow,
} from './account-tokens.ts';
import { endAccountSessions } from './sessions.repository.ts';
import type { Auth } from './auth.ts';
import { TOKEN_FAILURE_BUCKET } from './invitations.service.ts';
import { findUserByEmail, findUserById } from '../users/users.repository.ts';
import { hashPassword, storePasswordHash } from './passwords.ts';

const REQUEST_BY_ADDRESS = 'password-reset-request:address';
const REQUEST_BY_EMAIL = 'password-reset-request:email';

/**
 * Forgot password: an e-mailed 6-digit code and link, single use, valid 15 minutes. The request answers the
 * same whether or not the address has an account; a reset meets the password policy and ends every session
 * of the account. Requests are limited per e-mail and per client address, failed attempts per client address.
 */
export class PasswordResetService {
  readonly #auth: Auth;
  readonly #db: Database;
  readonly #config: Config;
  readonly #mail: MailService;
  readonly #limiter: RateLimiter;
  readonly #secret: string;

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

  async request(caller: PublicCaller, input: unknown): Promise<{ message: string }> {
    const { email, locale } = parseInput(RequestPasswordResetInputSchema, input);
    const address = caller.ip ?? 'unknown';
    const scope = actorScope(caller.actor, caller.operation);
    const refused = await this.#db.transaction(async (tx) => {
      for (const [bucket, key, limit] of [
        [REQUEST_BY_ADDRESS, address, PASSWORD_RESET_RATE_LIMITS.perAddress],
        [REQUEST_BY_EMAIL, email, PASSWORD_RESET_RATE_LIMITS.perEmail],
      ] as const) {
        const wait = await this.#limiter.consume(tx, bucket, key, limit);
        if (wait > 0) return { bucket, wait };
      }
      const account = await findUserByEmail(tx, email);
      const eligible = account && account.isActive && isRole(account.role);
      if (eligible) {
        const id = await this.issue(tx, account, locale ?? (account.language === 'es' ? 'es' : 'en'));
        await scope.audit(tx, 'PASSWORD_RESET_REQUESTED', { email, accountId: account.id, resetId: id });
      } else {
        await scope.audit(tx, 'PASSWORD_RESET_REQUESTED', {
          email,
          accountId: null,
          reason: account ? 'account inactive' : 'no account',
        });
      }
      return null;
    });
    if (refused) {
      await scope.audit(this.#db, 'RATE_LIMITED', { bucket: refused.bucket }, { level: 'WARNING' });
      throw rateLimited(refused.wait);
    }
    return { message: PASSWORD_RESET_MESSAGES.requested };
  }

  /**
   * Sets a new password with the link's token, or the e-mail address and code. Answers the account's id and
   * address (to sign in with: whoever holds the link received it at that address).
   */
  async reset(caller: PublicCaller, input: unknown): Promise<{ accountId: string; email: string; message: string }> {
    const data = parseInput(ResetPasswordInputSchema, input);
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
    const hash = await hashPassword(this.#auth, data.newPassword);
    const outcome = await this.#db.transaction(async (tx) => {
      const found = await this.#findToken(tx, data);
      const state = found.row ? tokenState(found.row) : 'revoked';
      if (!found.row || state !== 'valid' || !found.codeOk) {
        const reason: 'expired' | 'invalid' = state === 'expired' ? 'expired' : 'invalid';
        if (found.row && state === 'valid' && !found.codeOk)
          await recordWrongCode(tx, found.row.id, PASSWORD_RESET_MAX_CODE_ATTEMPTS);
        if (reason === 'invalid') await this.#limiter.record(tx, TOKEN_FAILURE_BUCKET, address);
        await scope.audit(
          tx,
          'PASSWORD_RESET_FAILED',
          {
            reason:
              found.row && state === 'valid'
                ? 'wrong code'
                : state === 'expired'
                  ? 'expired'
                  : 'unknown, used or replaced',
            ...(found.row ? { accountId: found.row.userId, resetId: found.row.id } : {}),
          },
          { level: 'WARNING' },
        );
        return { ok: false as const, reason };
      }
      const row = found.row;
      const account = await findUserById(tx, row.userId);
      await storePasswordHash(tx, row.userId, hash);
      await markTokenUsed(tx, row.id);
      // A pending invitation would set the password again: the reset supersedes it.
      await revokeAccountTokens(tx, row.userId, 'invitation');
      const ended = await endAccountSessions(tx, row.userId, 'PASSWORD_RESET');
      // The person proved the mailbox: an earlier lockout of the address no longer protects anything.
      if (account) await tx.delete(signInFailures).where(eq(signInFailures.email, account.email));
      // The entry names the account whose password was reset as its user.
      const owner = { ...caller.actor, userId: row.userId, userRole: account?.role ?? 'unknown' };
      await actorScope(owner, caller.operation).audit(tx, 'PASSWORD_RESET', {
        accountId: row.userId,
        resetId: row.id,
        sessionsEnded: ended.length,
        via: data.token ? 'link' : 'code',
      });
      return { ok: true as const, accountId: row.userId, email: account?.email ?? '' };
    });
    if (!outcome.ok) throw badUserInput(`passwordResetMessages.${outcome.reason}`, { reason: outcome.reason });
    return { accountId: outcome.accountId, email: outcome.email, message: PASSWORD_RESET_MESSAGES.done };
  }

  /**
   * Issues a reset code and link for an active account and puts its mail in the outbox, inside the caller's
   * transaction (a person's request above, or an administrator's on the Users screen). Answers the reset's id;
   * the caller records the audit entry.
   */
  async issue(tx: Executor, account: { id: string; email: string }, language: Locale): Promise<string> {
    const { id, token, code } = await issueAccountToken(tx, {
      kind: 'password_reset',
      userId: account.id,
      validMs: PASSWORD_RESET_VALID_MINUTES * 60_000,
      withCode: true,
      secret: this.#secret,
    });
    // The token travels in the fragment, which browsers never send to a server (no access log sees it).
    const link = `${this.#config.publicUrl}/reset-password#${token}`;
    await this.#mail.enqueue(tx, [
      {
        to: account.email,
        kind: 'password-reset',
        language,
        content: passwordResetMail(this.#mail.context, language, { link, code: code ?? '' }),
      },
    ]);
    return id;
  }

  async #findToken(
    tx: Executor,
    data: { token?: string | null | undefined; email?: string | null | undefined; code?: string | null | undefined },
  ): Promise<{ row: AccountTokenRow | undefined; codeOk: boolean }> {
    if (data.token)
      return { row: await findTokenByLink(tx, 'password_reset', data.token, { lock: true }), codeOk: true };
    if (!data.email || !data.code) return { row: undefined, codeOk: false };
    const account = await findUserByEmail(tx, data.email, { activeOnly: true });
    if (!account) return { row: undefined, codeOk: false };
    const row = await findLatestOpenToken(tx, 'password_reset', account.id);
    return { row, codeOk: row ? codeMatches(this.#secret, row, data.code) : false };
  }
}
