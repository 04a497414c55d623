import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns.ts';

/** Accounts. better-auth reads and writes this table (model "user"); role and isActive are ours. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** admin, provider or patient; null means no access at all. */
    role: text('role'),
    isActive: boolean('is_active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    /** The language of the e-mails the account receives: en or es. */
    language: text('language').notNull().default('en'),
    /** The person chose the language in My account; the app then follows it on every device. */
    languageChosen: boolean('language_chosen').notNull().default(false),
    /** Set by the two-factor set-up (better-auth's twoFactor plugin reads it at sign-in). */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /** When the account last completed a sign-in (the Users screen, decision 033). */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('admin', 'provider', 'patient')`),
    check('users_email_lower_check', sql`${t.email} = lower(btrim(${t.email}))`),
    check('users_language_check', sql`${t.language} in ('en', 'es')`),
    // The Users screen (decision 033): its keyset order and its search over name and e-mail.
    index('users_order_idx').using('btree', sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id),
    index('users_search_trgm_idx').using(
      'gin',
      sql`(lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email})) gin_trgm_ops`,
    ),
  ],
);

/** Server-side sessions (better-auth model "session"); the cookie carries only the signed token. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token: text('token').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    ...timestamps,
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** Credentials (better-auth model "account"): the password hash lives here, never in users. */
export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('auth_accounts_user_id_idx').on(t.userId)],
);

/** One-time codes and links (better-auth model "verification"). */
export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);

/**
 * An account's authenticator key and recovery codes (better-auth's twoFactor plugin, model "twoFactor"). The
 * key is encrypted by better-auth with a key derived from AUTH_SECRET; the recovery codes are a JSON list of
 * SHA-256 hashes, one removed as each is used. A row is `verified` once a code from the app confirmed it.
 */
export const twoFactors = pgTable('two_factors', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  backupCodes: text('backup_codes').notNull(),
  verified: boolean('verified').notNull().default(false),
  /** The plugin's count of consecutive wrong codes, and the lock it sets after too many. */
  failedVerificationCount: integer('failed_verification_count').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** The last code accepted at sign-in (SHA-256) and when: a code is accepted once (NIST SP 800-63B 5.1.4.2). */
  lastCodeHash: text('last_code_hash'),
  lastCodeAt: timestamp('last_code_at', { withTimezone: true }),
  ...timestamps,
});

/** Failed sign-ins by email (existing or not), for the lockout window. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_email_failed_at_idx').on(t.email, t.failedAt)],
);
