import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

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
    ...timestamps,
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('admin', 'provider', 'patient')`),
    check('users_email_lower_check', sql`${t.email} = lower(btrim(${t.email}))`),
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

/**
 * The audit trail: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), each entry's checksum
 * chaining to the previous entry's, so a changed or removed entry is detectable.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    timestamp: timestamp('timestamp', { withTimezone: true, precision: 3 }).notNull(),
    sessionId: text('session_id'),
    event: text('event').notNull(),
    level: text('level').notNull(),
    userId: text('user_id').notNull(),
    userRole: text('user_role').notNull(),
    clientIp: text('client_ip'),
    userAgent: text('user_agent'),
    url: text('url'),
    referrer: text('referrer'),
    details: jsonb('details').notNull(),
    hipaaRequired: boolean('hipaa_required').notNull(),
    retentionYears: integer('retention_years').notNull(),
    prevChecksum: text('prev_checksum').notNull(),
    checksum: text('checksum').notNull(),
  },
  (t) => [
    index('audit_entries_timestamp_idx').on(t.timestamp),
    index('audit_entries_user_id_idx').on(t.userId, t.timestamp),
    index('audit_entries_event_idx').on(t.event, t.timestamp),
    check('audit_entries_level_check', sql`${t.level} in ('INFO', 'WARNING', 'ERROR')`),
  ],
);

/** Providers (the specification's Doctor), each linked to a provider account. */
export const providers = pgTable('providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id')
    .notNull()
    .unique()
    .references(() => users.id),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  specialty: text('specialty').notNull(),
  experience: integer('experience').notNull().default(0),
  phone: text('phone'),
  bio: text('bio'),
  isActive: boolean('is_active').notNull().default(true),
  ...timestamps,
});

/**
 * Patients. `ownerId` is the primary provider's account; `accountId` links the patient's own account.
 * Deleting sets `deletedAt`: the record disappears from every screen but is kept for the retention period.
 */
export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    phone: text('phone'),
    isActive: boolean('is_active').notNull().default(true),
    street: text('street'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactPhone: text('emergency_contact_phone'),
    insuranceProvider: text('insurance_provider'),
    insurancePolicyNumber: text('insurance_policy_number'),
    reasonForCare: text('reason_for_care'),
    allergies: text('allergies'),
    currentMedications: text('current_medications'),
    medicalHistory: text('medical_history'),
    ownerId: uuid('owner_id').references(() => users.id),
    accountId: uuid('account_id').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    // The list order (last name, first name, id) and its keyset paging, for everyone and per owner.
    index('patients_order_idx').using('btree', sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id).where(sql`${t.deletedAt} IS NULL`),
    index('patients_owner_order_idx')
      .using('btree', t.ownerId, sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    // Case-insensitive substring search over first name, last name, full name and email.
    index('patients_search_trgm_idx').using('gin', sql`(lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email})) gin_trgm_ops`),
    uniqueIndex('patients_account_id_idx').on(t.accountId).where(sql`${t.accountId} IS NOT NULL AND ${t.deletedAt} IS NULL`),
  ],
);
