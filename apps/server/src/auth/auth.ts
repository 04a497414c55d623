import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema.ts';

/**
 * better-auth does the identity work: password hashing (scrypt, memory-hard), credential checks, session
 * creation and the signed session cookie. Its HTTP routes are not mounted; our GraphQL contract calls it.
 */
export function createAuth(options: { db: Database; config: Config; secret: string }) {
  const { db, config, secret } = options;
  return betterAuth({
    appName: config.practiceName,
    baseURL: config.publicUrl,
    secret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        users: schema.users,
        sessions: schema.sessions,
        auth_accounts: schema.authAccounts,
        verifications: schema.verifications,
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
      expiresIn: Math.max(1, Math.round(config.sessionIdleMinutes * 60)),
      updateAge: 0,
      cookieCache: { enabled: false },
    },
    account: { modelName: 'auth_accounts' },
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      // Accounts are created by administrators and invitations, never by open sign-up.
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
    },
    advanced: {
      cookiePrefix: 'telehealth',
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies, path: '/' },
      database: { generateId: 'uuid' },
    },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { disabled: true },
  });
}

export type Auth = ReturnType<typeof createAuth>;
