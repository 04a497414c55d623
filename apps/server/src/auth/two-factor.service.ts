import { createHash } from 'node:crypto';
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { generateRandomString, symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import { and, eq } from 'drizzle-orm';
import {
  DisableTwoFactorInputSchema,
  isTotpCode,
  TOTP_CODE_LENGTH,
  TotpCodeSchema,
  type CurrentUser,
  type TotpSetup,
  type TwoFactorStatus,
} from '@telehealth/shared';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { twoFactors } from './auth.table.ts';
import type { AppError } from '../errors.ts';
import { badUserInput, notFound, parseInput, unauthenticated } from '../errors.ts';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { actorScope, scopeOf } from '../access/scope.ts';
import { rateLimited } from '../rate-limit/rate-limiter.ts';
import { findTwoFactorState, findUserById, setTwoFactorEnabled } from '../users/users.repository.ts';
import {
  actorFor,
  type ActiveSession,
  type AuthService,
  type ChallengedAccount,
  type RequestMeta,
} from './auth.service.ts';
import { generateRecoveryCodes, type Auth } from './auth.ts';
import { verifyPassword } from './passwords.ts';
import { recoveryCodeHasher, type RecoveryCodeHasher } from './recovery-codes.ts';
import { isUuid } from '../db/ids.ts';
import type { SignInLockout } from './sign-in-lockout.ts';

/** What confirming a set-up answers: the recovery codes (shown once) and, when it ended a sign-in, its cookies. */
export interface TotpSetupConfirmation {
  recoveryCodes: string[];
  user: CurrentUser | null;
  setCookies: string[];
}

/** The key of an authenticator app: as better-auth's twoFactor plugin makes it (32 random characters). */
const KEY_LENGTH = 32;
const TOTP_PERIOD_SECONDS = 30;

/**
 * Two-factor sign-in (TOTP) for every role: enrolment (from the account menu, or as the only thing a sign-in of
 * a role in MFA_REQUIRED_ROLES may do before it has two-factor), turning it off, an administrator's reset, and
 * the state the security screen shows. Keys, codes and recovery codes are stored as better-auth's twoFactor
 * plugin reads them at sign-in (auth.service.ts confirmSignIn), with its OTP and encryption utilities.
 */
export class TwoFactorService {
  readonly #auth: Auth;
  readonly #db: Database;
  readonly #config: Config;
  readonly #authService: AuthService;
  readonly #lockout: SignInLockout;
  readonly #recoveryCodes: RecoveryCodeHasher;

  constructor(options: {
    auth: Auth;
    db: Database;
    config: Config;
    authService: AuthService;
    lockout: SignInLockout;
    secret: string;
  }) {
    this.#auth = options.auth;
    this.#db = options.db;
    this.#config = options.config;
    this.#authService = options.authService;
    this.#lockout = options.lockout;
    this.#recoveryCodes = recoveryCodeHasher(options.secret);
  }

  /** Whether the account has two-factor on, and how many recovery codes it has left. */
  async status(userId: string): Promise<TwoFactorStatus> {
    const row = await findTwoFactorState(this.#db, userId);
    const enabled = !!row?.enabled && row.verified === true;
    return { enabled, recoveryCodesRemaining: enabled ? countCodes(row.backupCodes) : 0 };
  }

  /**
   * `startTotpSetup`: a new key for the caller's authenticator app. The caller is the signed-in user, or the
   * account of a sign-in that must set up two-factor first (its challenge cookie); anyone else is refused.
   */
  async startSetup(session: ActiveSession | null, meta: RequestMeta): Promise<TotpSetup> {
    const { account, actor } = await this.#enrollingAccount(session, meta);
    const [existing] = await this.#db
      .select({ verified: twoFactors.verified })
      .from(twoFactors)
      .where(eq(twoFactors.userId, account.id));
    if (existing?.verified) throw badUserInput('twoFactorMessages.alreadyEnabled');

    const ctx = await this.#auth.$context;
    const key = generateRandomString(KEY_LENGTH);
    const secret = await symmetricEncrypt({ key: ctx.secretConfig, data: key });
    await this.#db.transaction(async (tx) => {
      // A set-up started before and never confirmed is replaced: only the newest key can be confirmed.
      await tx
        .insert(twoFactors)
        .values({ userId: account.id, secret, backupCodes: '[]', verified: false })
        .onConflictDoUpdate({
          target: twoFactors.userId,
          set: {
            secret,
            backupCodes: '[]',
            verified: false,
            failedVerificationCount: 0,
            lockedUntil: null,
            updatedAt: new Date(),
          },
        });
      await actorScope(actor, meta.url).audit(tx, 'TWO_FACTOR_SETUP_STARTED', { accountId: account.id });
    });
    const uri = createOTP(key, { digits: TOTP_CODE_LENGTH, period: TOTP_PERIOD_SECONDS }).url(
      this.#config.settings.current().practiceName,
      account.email,
    );
    // The query is form-encoded (a space as `+`), which several authenticator apps show as a plus sign; the key
    // URI format asks for %20. A `+` in the issuer itself is already `%2B`, and base32 has none.
    const [path, query = ''] = uri.split('?');
    const otpauthUri = `${path}?${query.replaceAll('+', '%20')}`;
    return { secret: base32.encode(key, { padding: false }), otpauthUri };
  }

  /**
   * `confirmTotpSetup`: a code from the app proves it holds the key; two-factor is then on and ten recovery codes
   * are made (answered once, stored as hashes). For a sign-in that had to set up two-factor, the sign-in is then
   * complete (a wrong code there counts toward the lockout, as at any sign-in).
   */
  async confirmSetup(
    session: ActiveSession | null,
    meta: RequestMeta,
    input: { code: unknown },
  ): Promise<TotpSetupConfirmation> {
    const { account, actor, signingIn } = await this.#enrollingAccount(session, meta);
    const code = parseInput(TotpCodeSchema, input.code);
    if (signingIn) await this.#refuseWhileLocked(account.email);

    const [row] = await this.#db.select().from(twoFactors).where(eq(twoFactors.userId, account.id));
    if (!row) throw badUserInput('twoFactorMessages.setupNotStarted');
    if (row.verified) throw badUserInput('twoFactorMessages.alreadyEnabled');

    if (!(await this.#totpMatches(row.secret, code))) {
      if (signingIn) {
        const message = await this.#lockout.recordFailure(account.email, meta, {
          reason: 'invalid two-factor code',
          event: 'TWO_FACTOR_SETUP_FAILED',
          actor,
        });
        if (message.id !== 'messages.invalidCredentials')
          throw lockedError(await this.#lockout.lockRemainingMs(account.email));
      } else {
        await actorScope(actor, meta.url).audit(
          this.#db,
          'TWO_FACTOR_SETUP_FAILED',
          { accountId: account.id, reason: 'invalid two-factor code' },
          { level: 'WARNING' },
        );
      }
      throw badUserInput('twoFactorMessages.invalidCode');
    }

    const recoveryCodes = generateRecoveryCodes();
    const confirmed = await this.#db.transaction(async (tx) => {
      const updated = await tx
        .update(twoFactors)
        .set({
          verified: true,
          backupCodes: this.#recoveryCodes.hashList(JSON.stringify(recoveryCodes)),
          failedVerificationCount: 0,
          lockedUntil: null,
          // The code that confirmed the set-up is spent: it will not sign in again.
          lastCodeHash: createHash('sha256').update(code).digest('hex'),
          lastCodeAt: new Date(),
          updatedAt: new Date(),
        })
        .where(and(eq(twoFactors.id, row.id), eq(twoFactors.verified, false), eq(twoFactors.secret, row.secret)))
        .returning({ id: twoFactors.id });
      if (updated.length === 0) return false;
      await setTwoFactorEnabled(tx, account.id, true);
      await actorScope(actor, meta.url).audit(tx, 'TWO_FACTOR_ENABLED', {
        accountId: account.id,
        method: 'totp',
        recoveryCodes: recoveryCodes.length,
      });
      return true;
    });
    // A second confirmation (another tab) or a new set-up started meanwhile.
    if (!confirmed) throw badUserInput('twoFactorMessages.setupNotStarted');

    if (!signingIn) return { recoveryCodes, user: null, setCookies: [] };
    const outcome = await this.#authService.completeSetupSignIn(account, meta);
    return { recoveryCodes, user: outcome.result.user, setCookies: outcome.setCookies };
  }

  /**
   * `disableTwoFactor`: with the account's password and a current code (or a recovery code). Wrong ones count
   * toward the sign-in lockout: a stolen session must not be a way to try passwords.
   */
  async disable(
    session: ActiveSession,
    meta: RequestMeta,
    input: { code: unknown; password: unknown },
  ): Promise<TwoFactorStatus> {
    const user = session.user;
    const actor = actorFor(session, meta);
    const { code, password } = parseInput(DisableTwoFactorInputSchema, input);
    if (this.#config.settings.current().twoFactorRequiredRoles.includes(user.role))
      throw badUserInput('twoFactorMessages.requiredForRole');
    await this.#refuseWhileLocked(user.email);

    const [row] = await this.#db
      .select()
      .from(twoFactors)
      .where(and(eq(twoFactors.userId, user.id), eq(twoFactors.verified, true)));
    if (!row) throw badUserInput('twoFactorMessages.notEnabled');

    const passwordRight = await verifyPassword(this.#auth, this.#db, user.id, password);
    const codeRight = isTotpCode(code)
      ? await this.#totpMatches(row.secret, code.replace(/\s+/g, ''))
      : parseCodes(row.backupCodes).includes(this.#recoveryCodes.hash(code));
    if (!passwordRight || !codeRight) {
      const message = await this.#lockout.recordFailure(user.email, meta, {
        reason: passwordRight ? 'invalid two-factor code' : 'invalid password',
        event: 'TWO_FACTOR_DISABLE_FAILED',
        actor,
      });
      if (message.id !== 'messages.invalidCredentials')
        throw lockedError(await this.#lockout.lockRemainingMs(user.email));
      throw badUserInput('twoFactorMessages.invalidPasswordOrCode');
    }

    await this.#db.transaction(async (tx) => {
      await tx.delete(twoFactors).where(eq(twoFactors.userId, user.id));
      await setTwoFactorEnabled(tx, user.id, false);
      await actorScope(actor, meta.url).audit(
        tx,
        'TWO_FACTOR_DISABLED',
        { accountId: user.id, confirmedWith: isTotpCode(code) ? 'totp' : 'recovery code' },
        { level: 'WARNING' },
      );
    });
    return { enabled: false, recoveryCodesRemaining: 0 };
  }

  /**
   * Re-confirms the signed-in person before a signature (a clinical note, an addendum): their password, or a current
   * code of their authenticator app. A wrong one counts toward the sign-in lockout like a wrong password, and is
   * recorded as `failedEvent` (a note's signature unless told: a treatment plan's says so).
   */
  async confirmIdentity(
    caller: Caller,
    meta: RequestMeta,
    proof: { password?: string | null | undefined; code?: string | null | undefined },
    failedEvent: 'NOTE_SIGN_FAILED' | 'TREATMENT_PLAN_SIGN_FAILED' = 'NOTE_SIGN_FAILED',
  ): Promise<void> {
    const { user, actor } = caller;
    await this.#refuseWhileLocked(user.email);
    const password = proof.password ?? '';
    const code = (proof.code ?? '').replace(/\s+/g, '');
    if (!password && !code) throw badUserInput('noteMessages.confirmIdentity');
    let confirmed = false;
    if (password) {
      confirmed = await verifyPassword(this.#auth, this.#db, user.id, password);
    } else if (isTotpCode(code)) {
      const [row] = await this.#db
        .select()
        .from(twoFactors)
        .where(and(eq(twoFactors.userId, user.id), eq(twoFactors.verified, true)));
      confirmed = !!row && (await this.#totpMatches(row.secret, code));
    }
    if (confirmed) return;
    const message = await this.#lockout.recordFailure(user.email, meta, {
      reason: password ? 'invalid password' : 'invalid two-factor code',
      event: failedEvent,
      actor,
    });
    if (message.id !== 'messages.invalidCredentials')
      throw lockedError(await this.#lockout.lockRemainingMs(user.email));
    throw badUserInput('noteMessages.identityNotConfirmed');
  }

  /**
   * `resetTwoFactor`: an administrator turns off another account's two-factor (a lost phone and no recovery
   * codes). The account signs in with its password next time (and must set two-factor up again if its role
   * requires it). Audited; anyone else is refused and recorded.
   */
  async reset(caller: Caller, accountId: string): Promise<boolean> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    if (!isUuid(accountId)) throw notFound('twoFactorMessages.accountNotFound');
    const found = await this.#db.transaction(async (tx) => {
      const account = await findUserById(tx, accountId, { lock: true });
      if (!account) return false;
      await tx.delete(twoFactors).where(eq(twoFactors.userId, accountId));
      await setTwoFactorEnabled(tx, accountId, false);
      await scopeOf(this.#db, caller).audit(
        tx,
        'TWO_FACTOR_RESET',
        { accountId, accountRole: account.role, wasEnabled: account.twoFactorEnabled },
        { level: 'WARNING' },
      );
      return true;
    });
    if (!found) throw notFound('twoFactorMessages.accountNotFound');
    await this.#authService.discardChallengesOf(accountId);
    return true;
  }

  /** The account being enrolled: the signed-in user's, else a sign-in's that must set up two-factor first. */
  async #enrollingAccount(
    session: ActiveSession | null,
    meta: RequestMeta,
  ): Promise<{ account: ChallengedAccount; actor: AuditActor; signingIn: boolean }> {
    if (session) {
      const { id, email, role } = session.user;
      return { account: { id, email, role }, actor: actorFor(session, meta), signingIn: false };
    }
    const account = await this.#authService.setupChallengeAccount(meta);
    if (!account) throw unauthenticated();
    return {
      account,
      actor: { ...actorFor(null, meta), userId: account.id, userRole: account.role },
      signingIn: true,
    };
  }

  async #refuseWhileLocked(email: string): Promise<void> {
    const lockedFor = await this.#lockout.lockRemainingMs(email);
    if (lockedFor > 0) throw lockedError(lockedFor);
  }

  async #totpMatches(encryptedKey: string, code: string): Promise<boolean> {
    const ctx = await this.#auth.$context;
    const key = await symmetricDecrypt({ key: ctx.secretConfig, data: encryptedKey });
    return createOTP(key, { digits: TOTP_CODE_LENGTH, period: TOTP_PERIOD_SECONDS }).verify(code);
  }
}

function lockedError(retryAfterMs: number): AppError {
  return rateLimited(retryAfterMs, 'messages.accountLocked');
}

function parseCodes(stored: string | null | undefined): string[] {
  try {
    const codes = JSON.parse(stored ?? '[]') as unknown;
    return Array.isArray(codes) ? codes.filter((code): code is string => typeof code === 'string') : [];
  } catch {
    return [];
  }
}

function countCodes(stored: string | null | undefined): number {
  return parseCodes(stored).length;
}
