import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { generateRandomString } from 'better-auth/crypto';
import { twoFactor } from 'better-auth/plugins/two-factor';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  TWO_FACTOR_CHALLENGE_SECONDS,
} from '@telehealth/shared';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import * as schema from './auth.table.ts';
import { recoveryCodeHasher } from './recovery-codes.ts';

/** Ten recovery codes in lower-case letters and digits (`abcde-12345`): easier to copy from paper than mixed case. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const code = generateRandomString(RECOVERY_CODE_LENGTH, 'a-z', '0-9');
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * better-auth does the identity work: password hashing (scrypt, memory-hard), credential checks, session
 * creation and the signed session cookie. Its HTTP routes are not mounted; our GraphQL contract calls it.
 */
export function createAuth(options: { db: Database; config: Config; secret: string }) {
  const { db, config, secret } = options;
  const recoveryCodes = recoveryCodeHasher(secret);
  // The practice's name and idle time-out are settings that can change while running (decision 032): better-auth
  // takes them once. Its name is never shown (the key URI is built in two-factor.service.ts), and a new session's
  // deadline and cookie are set from the setting in use when the sign-in completes (AuthService.#completeSignIn).
  const atStart = config.settings.current();
  return betterAuth({
    appName: atStart.practiceName,
    baseURL: config.publicUrl,
    secret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        users: schema.users,
        sessions: schema.sessions,
        auth_accounts: schema.authAccounts,
        verifications: schema.verifications,
        two_factors: schema.twoFactors,
      },
    }),
    user: {
      modelName: 'users',
      additionalFields: {
        firstName: { type: 'string', required: false, input: false, defaultValue: '' },
        lastName: { type: 'string', required: false, input: false, defaultValue: '' },
        role: { type: 'string', required: false, input: false },
        isActive: { type: 'boolean', required: false, input: false, defaultValue: true },
      },
    },
    session: {
      modelName: 'sessions',
      // A session lives SESSION_IDLE_MINUTES past its last request; the request path slides it (sessions.ts).
      expiresIn: Math.max(1, Math.round(atStart.sessionIdleMinutes * 60)),
      updateAge: 0,
      cookieCache: { enabled: false },
    },
    account: { modelName: 'auth_accounts' },
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      // Accounts are created by administrators and invitations, never by open sign-up.
      disableSignUp: true,
      // Ours are checked first (the shared schemas); these stay equal so the library never refuses on its own.
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
    },
    advanced: {
      cookiePrefix: 'telehealth',
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies, path: '/' },
      database: { generateId: 'uuid' },
    },
    plugins: [
      // TOTP at sign-in: the plugin turns a password sign-in of an enrolled account into a challenge (a signed
      // httpOnly cookie naming a verification row, TWO_FACTOR_CHALLENGE_SECONDS long, no session) and completes
      // it with a code or a recovery code. Enrolment and its state are ours (two-factor.service.ts).
      twoFactor({
        issuer: atStart.practiceName,
        twoFactorCookieMaxAge: TWO_FACTOR_CHALLENGE_SECONDS,
        schema: { twoFactor: { modelName: 'two_factors' } },
        backupCodeOptions: {
          amount: RECOVERY_CODE_COUNT,
          length: RECOVERY_CODE_LENGTH,
          customBackupCodesGenerate: generateRecoveryCodes,
          // Stored as hashes (recovery-codes.ts): callers pass the hash of what the person typed.
          storeBackupCodes: {
            encrypt: (json) => Promise.resolve(recoveryCodes.hashList(json)),
            decrypt: (stored) => Promise.resolve(stored),
          },
        },
      }),
    ],
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { disabled: true },
  });
}

export type Auth = ReturnType<typeof createAuth>;
