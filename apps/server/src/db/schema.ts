import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  type AnyPgColumn,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Binary data (recordings, encrypted before they are written). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** An encrypted column holds nothing but encrypted values (`enc:…`, decision 016). */
function encryptedCheck(table: string, column: AnyPgColumn) {
  return check(`${table}_${column.name}_encrypted`, sql`${column} IS NULL OR ${column} LIKE 'enc:%'`);
}

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

/** PostgreSQL's 64-bit transaction id (`xid8`), read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The audit trail: append-only (triggers refuse UPDATE, DELETE and TRUNCATE). Entries are inserted without a
 * checksum, stamped with the inserting transaction; the sealer links them into `audit_chain` (decision 015).
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
    /** The inserting transaction (a trigger sets it); 0 for the entries chained before migration 0004. */
    xactId: xid8('xact_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** `client`: reported by a browser through /api/audit (decision 034), never a fact the server recorded. */
    source: text('source', { enum: ['server', 'client'] })
      .notNull()
      .default('server'),
  },
  (t) => [
    // Each ends in the search's keyset (timestamp, id), newest first (decision 034, migration 0022).
    index('audit_entries_timestamp_idx').on(t.timestamp, t.id),
    index('audit_entries_user_id_idx').on(t.userId, t.timestamp, t.id),
    index('audit_entries_event_idx').on(t.event, t.timestamp, t.id),
    index('audit_entries_level_idx')
      .on(t.level, t.timestamp, t.id)
      .where(sql`${t.level} IN ('WARNING', 'ERROR')`),
    check('audit_entries_source_check', sql`${t.source} in ('server', 'client')`),
    index('audit_entries_seal_order_idx').on(t.xactId, t.id),
    // "Who viewed my record" finds a patient's entries by `details->'patientIds' @> '["id"]'`.
    index('audit_entries_patient_ids_idx').using('gin', sql`(${t.details} -> 'patientIds') jsonb_path_ops`),
    check('audit_entries_level_check', sql`${t.level} in ('INFO', 'WARNING', 'ERROR')`),
  ],
);

/**
 * The SHA-256 chain over the audit entries, in seal order: append-only like the entries. Each position's
 * checksum covers its entry's content and the previous position's checksum.
 */
export const auditChain = pgTable('audit_chain', {
  position: bigint('position', { mode: 'number' }).primaryKey(),
  entryId: bigint('entry_id', { mode: 'number' }).notNull().unique(),
  /** The entry's transaction, copied so the sealer finds where it stopped without reading the entry. */
  xactId: xid8('xact_id').notNull(),
  prevChecksum: text('prev_checksum').notNull(),
  checksum: text('checksum').notNull(),
  sealedAt: timestamp('sealed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where the audit chain was anchored: one row per anchors file (absolute path) with its newest anchor. Not
 * evidence (the file is); it lets `audit:verify` tell a chain never anchored from an anchors file it cannot find.
 */
export const auditAnchorFiles = pgTable('audit_anchor_files', {
  file: text('file').primaryKey(),
  host: text('host').notNull(),
  position: bigint('position', { mode: 'number' }).notNull(),
  anchoredAt: timestamp('anchored_at', { withTimezone: true }).notNull(),
  firstAnchoredAt: timestamp('first_anchored_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Providers (the specification's Doctor): the directory record of a provider account. A provider has one id,
 * their account's: `id` is the account's id, and every table that names a provider (a patient's primary
 * provider, and later appointments and notes) references it. Decision 020.
 */
export const providers = pgTable('providers', {
  id: uuid('id')
    .primaryKey()
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
 * Patients. `ownerId` is the primary provider (a provider's id, which is their account's); `accountId` links
 * the patient's own account.
 * Deleting sets `deletedAt`: the record disappears from every screen but is kept for the retention period.
 * The clinical free text (reason for care, allergies, medications, history, policy number) is stored encrypted
 * (`keys/encrypted-columns.ts`, decision 016); a CHECK constraint refuses plain text there.
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
    ownerId: uuid('owner_id').references(() => providers.id),
    accountId: uuid('account_id').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    // The list order (last name, first name, id) and its keyset paging, for everyone and per owner.
    index('patients_order_idx')
      .using('btree', sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    index('patients_owner_order_idx')
      .using('btree', t.ownerId, sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    // Case-insensitive substring search over first name, last name, full name and email.
    index('patients_search_trgm_idx').using(
      'gin',
      sql`(lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email})) gin_trgm_ops`,
    ),
    uniqueIndex('patients_account_id_idx')
      .on(t.accountId)
      .where(sql`${t.accountId} IS NOT NULL AND ${t.deletedAt} IS NULL`),
    ...[t.reasonForCare, t.allergies, t.currentMedications, t.medicalHistory, t.insurancePolicyNumber].map((column) =>
      encryptedCheck('patients', column),
    ),
  ],
);

/**
 * Requests for access from the public forms. `form` holds every field of the form as validated (JSON, encrypted
 * like the decline reason); for a patient it is health information: it is never logged, never mailed, and read
 * only by administrators (audited).
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('new'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    /** The language of the e-mails this request causes (and of the account it becomes). */
    language: text('language').notNull().default('en'),
    form: text('form').notNull(),
    declineReason: text('decline_reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The account approval created. */
    accountId: uuid('account_id').references(() => users.id),
    /** HMAC of the client address with the server secret: ties a flood together without keeping the address. */
    clientIpHash: text('client_ip_hash'),
    ...timestamps,
  },
  (t) => [
    check('access_requests_kind_check', sql`${t.kind} in ('provider', 'patient')`),
    check('access_requests_status_check', sql`${t.status} in ('new', 'approved', 'declined')`),
    check('access_requests_language_check', sql`${t.language} in ('en', 'es')`),
    index('access_requests_order_idx').on(t.createdAt.desc(), t.id.desc()),
    index('access_requests_status_order_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    encryptedCheck('access_requests', t.form),
    encryptedCheck('access_requests', t.declineReason),
  ],
);

/**
 * Single-use links and codes that set a password: invitations (72 hours) and password resets (15 minutes).
 * Only SHA-256 hashes of the link tokens and an HMAC of the reset code are stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    codeHash: text('code_hash'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Set when a newer token of the same kind replaced this one, or too many wrong codes were tried. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    accessRequestId: uuid('access_request_id').references(() => accessRequests.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('account_tokens_kind_check', sql`${t.kind} in ('invitation', 'password_reset')`),
    index('account_tokens_user_idx').on(t.userId, t.kind, t.createdAt),
  ],
);

/**
 * Every e-mail the server writes, in the same transaction as the change that causes it. Without SMTP_URL the
 * mail is kept here (status kept); with it, a deliverer sends queued mail and records the outcome, and the
 * body of a sent mail is erased (it may hold a link that sets a password).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** An appointment's iCalendar invitation (REQUEST or CANCEL), sent as the text/calendar part; erased once sent. */
    calendarMethod: text('calendar_method'),
    calendarIcs: text('calendar_ics'),
  },
  (t) => [
    check('mail_outbox_status_check', sql`${t.status} in ('queued', 'sending', 'sent', 'failed', 'kept')`),
    index('mail_outbox_order_idx').on(t.createdAt.desc(), t.id.desc()),
    index('mail_outbox_pending_idx')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('queued', 'sending', 'failed')`),
  ],
);

/** One row per counted attempt, keyed by an HMAC of the address or e-mail; pruned after a day. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    keyHash: text('key_hash').notNull(),
    hitAt: timestamp('hit_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hits_lookup_idx').on(t.bucket, t.keyHash, t.hitAt)],
);

/**
 * The Idempotency-Key of a create mutation (decision 044): written with what it created, in one transaction, so a
 * retry answers the first result. Holds no health data: the input only as an HMAC, the result as its record's id.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    inputHash: text('input_hash').notNull(),
    resultId: uuid('result_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    check('idempotency_keys_key_length_check', sql`length(${t.key}) BETWEEN 1 AND 255`),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Stored values that a later text rule would refuse (decision 022), found at start and made inert in place. The
 * value as it was is kept here, encrypted, so nothing a person typed is lost; administrators see which record
 * and field, never the value, and mark each one resolved once the record has been checked.
 */
export const storedTextFindings = pgTable(
  'stored_text_findings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tableName: text('table_name').notNull(),
    recordId: uuid('record_id').notNull(),
    field: text('field').notNull(),
    problem: text('problem').notNull(),
    originalValue: text('original_value').notNull(),
    ruleVersion: integer('rule_version').notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id),
  },
  (t) => [
    check('stored_text_findings_problem_check', sql`${t.problem} in ('invalidCharacters', 'markup', 'urlScheme')`),
    index('stored_text_findings_order_idx').on(t.foundAt.desc(), t.id.desc()),
    encryptedCheck('stored_text_findings', t.originalValue),
  ],
);

/** Each version of the text rule is checked against the stored data once: this records that it was. */
export const textRuleReviews = pgTable('text_rule_reviews', {
  ruleVersion: integer('rule_version').primaryKey(),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull().defaultNow(),
  findings: integer('findings').notNull(),
});

/**
 * Appointments (decision 023). A visit of a patient with a provider from `startsAt` to `endsAt`, booked as a
 * date and time in `timeZone` (the practice's zone when it was booked). The exclusion constraints of migration
 * 0009, which Drizzle cannot express, keep two slot-holding appointments of one provider, or of one patient,
 * from overlapping. The reason, notes and cancellation reason are encrypted like the patient's clinical text.
 * `sequence` is the iCalendar SEQUENCE: raised on every change the patient's invitation must follow;
 * `invitationSequence` is the last one whose invitation was queued, null before the first.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    timeZone: text('time_zone').notNull(),
    duration: integer('duration').notNull(),
    appointmentType: text('appointment_type').notNull(),
    status: text('status').notNull(),
    priority: text('priority').notNull().default('normal'),
    reason: text('reason').notNull(),
    notes: text('notes'),
    seriesId: uuid('series_id'),
    sequence: integer('sequence').notNull().default(0),
    invitationSequence: integer('invitation_sequence'),
    cancellationKind: text('cancellation_kind'),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    updatedBy: uuid('updated_by').references(() => users.id),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    statusChangedBy: uuid('status_changed_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('appointments_provider_start_idx').on(t.providerId, t.startsAt, t.id),
    index('appointments_patient_start_idx').on(t.patientId, t.startsAt, t.id),
    index('appointments_start_idx').on(t.startsAt, t.id),
    index('appointments_series_idx')
      .on(t.seriesId, t.startsAt)
      .where(sql`${t.seriesId} IS NOT NULL`),
    check('appointments_time_order', sql`${t.endsAt} > ${t.startsAt}`),
    check('appointments_duration_check', sql`${t.duration} in (15, 30, 45, 60, 90)`),
    check('appointments_type_check', sql`${t.appointmentType} in ('in-person', 'video')`),
    check(
      'appointments_status_check',
      sql`${t.status} in ('scheduled', 'pending', 'confirmed', 'checked-in', 'in-progress', 'completed', 'cancelled', 'no-show')`,
    ),
    check('appointments_priority_check', sql`${t.priority} in ('normal', 'high', 'urgent')`),
    check(
      'appointments_cancellation_check',
      sql`(${t.status} = 'cancelled') = (${t.cancellationKind} IS NOT NULL) AND (${t.cancellationKind} IS NULL OR ${t.cancellationKind} in ('patient', 'provider', 'late'))`,
    ),
    ...[t.reason, t.notes, t.cancelReason].map((column) => encryptedCheck('appointments', column)),
  ],
);

/**
 * What happened to an appointment, oldest first: created, rescheduled (from and to), a change of status,
 * cancelled. Who and when; never the reason or notes (those stay in the encrypted columns).
 */
export const appointmentHistory = pgTable(
  'appointment_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    fromStartsAt: timestamp('from_starts_at', { withTimezone: true }),
    toStartsAt: timestamp('to_starts_at', { withTimezone: true }),
    fields: jsonb('fields').$type<string[]>(),
    actorId: uuid('actor_id').references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('appointment_history_appointment_idx').on(t.appointmentId, t.id),
    check(
      'appointment_history_action_check',
      sql`${t.action} in ('created', 'updated', 'rescheduled', 'status', 'cancelled')`,
    ),
  ],
);

/**
 * A provider's weekly working hours in the practice's zone; a provider without rows has the default hours
 * (DEFAULT_WORKING_HOURS) until they set their own, after which `provider_schedules.custom` is true.
 */
export const providerWorkingHours = pgTable(
  'provider_working_hours',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    weekday: integer('weekday').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
  },
  (t) => [
    uniqueIndex('provider_working_hours_pk').on(t.providerId, t.weekday, t.startTime),
    check('provider_working_hours_weekday_check', sql`${t.weekday} between 1 and 7`),
    check('provider_working_hours_order_check', sql`${t.startTime} < ${t.endTime}`),
  ],
);

/** Whether a provider has set their own hours (an empty week is then a week without hours). */
export const providerSchedules = pgTable('provider_schedules', {
  providerId: uuid('provider_id')
    .primaryKey()
    .references(() => providers.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id),
});

/** A provider's time off: whole practice dates from `startDate` to `endDate`, both included. */
export const providerTimeOff = pgTable(
  'provider_time_off',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    label: text('label'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('provider_time_off_provider_idx').on(t.providerId, t.startDate),
    check('provider_time_off_order_check', sql`${t.startDate} <= ${t.endDate}`),
  ],
);

/**
 * The reminders that went out: one per appointment, hours before, and start. A reminder job that runs twice (or
 * again after a restart) finds its row and sends nothing; a rescheduled appointment has a new start, so its
 * reminders go out again for the new time.
 */
export const appointmentReminders = pgTable(
  'appointment_reminders',
  {
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    hoursBefore: integer('hours_before').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('appointment_reminders_once_idx').on(t.appointmentId, t.hoursBefore, t.startsAt)],
);

/**
 * Patients waiting for an earlier visit with a provider: which days (ISO weekdays) and part of the day suit them,
 * between which practice dates, for how long. The reason is encrypted like an appointment's; it becomes the
 * appointment's reason when an offer is claimed.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    weekdays: integer('weekdays').array().notNull(),
    timeOfDay: text('time_of_day').notNull(),
    duration: integer('duration').notNull(),
    appointmentType: text('appointment_type').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull().default('waiting'),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    createdBy: uuid('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('waitlist_entries_provider_idx').on(t.providerId, t.status, t.createdAt),
    check('waitlist_entries_status_check', sql`${t.status} in ('waiting', 'booked', 'removed')`),
    check('waitlist_entries_time_of_day_check', sql`${t.timeOfDay} in ('any', 'morning', 'afternoon')`),
    check('waitlist_entries_range_check', sql`${t.fromDate} <= ${t.toDate}`),
    encryptedCheck('waitlist_entries', t.reason),
  ],
);

/**
 * A freed slot offered to a waiting patient by an e-mailed link (only the token's SHA-256 is kept). Several
 * patients may hold an offer for one slot; the first to claim it gets the appointment and the others' offers
 * become `gone`.
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => waitlistEntries.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('waitlist_offers_token_idx').on(t.tokenHash),
    index('waitlist_offers_slot_idx').on(t.providerId, t.startsAt),
    uniqueIndex('waitlist_offers_once_idx').on(t.entryId, t.startsAt),
    check('waitlist_offers_status_check', sql`${t.status} in ('open', 'claimed', 'gone')`),
  ],
);

/**
 * A provider's private calendar feed (subscribed to from another calendar application): the SHA-256 of the
 * token in its URL. One per provider; making a new one or revoking it ends the old URL.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  providerId: uuid('provider_id')
    .primaryKey()
    .references(() => providers.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastReadAt: timestamp('last_read_at', { withTimezone: true }),
});

/**
 * The people of a video visit (decision 026), one row per person (peer) and appointment: the provider, the
 * patient, later guests. `presence` is waiting or admitted; `connectionId` the signalling socket now holding
 * the person (null once they left), and `pageId` the browser page behind it (a new page after a reload is a
 * new peer for the others). `displayName` is the name the person gave, encrypted with the data keys.
 */
export const videoParticipants = pgTable(
  'video_participants',
  {
    id: uuid('id').primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    peerId: text('peer_id').notNull(),
    userId: uuid('user_id').references(() => users.id),
    role: text('role').notNull(),
    displayName: text('display_name').notNull(),
    presence: text('presence').notNull(),
    connectionId: uuid('connection_id'),
    pageId: text('page_id'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('video_participants_peer_idx').on(t.appointmentId, t.peerId),
    uniqueIndex('video_participants_connection_idx').on(t.connectionId),
    encryptedCheck('video_participants', t.displayName),
    check('video_participants_role_check', sql`${t.role} in ('provider', 'patient', 'guest')`),
    check('video_participants_presence_check', sql`${t.presence} in ('waiting', 'admitted')`),
  ],
);

/**
 * Signalling messages on their way to one socket: written and announced (NOTIFY video_signal) in one
 * transaction, taken (deleted) by the instance holding the socket. This is what lets the two people of a
 * call be connected to two different server instances.
 */
export const videoSignals = pgTable(
  'video_signals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    connectionId: uuid('connection_id').notNull(),
    message: jsonb('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('video_signals_created_idx').on(t.createdAt)],
);

/**
 * Recordings of video visits (decision 026), made only with the consent of everyone in the call. `status`:
 * asking (consent pending), recording, paused (someone joined and has not agreed yet), stopped (being
 * assembled), refused (someone declined before anything was recorded), ready, failed.
 */
export const videoRecordings = pgTable(
  'video_recordings',
  {
    id: uuid('id').primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull(),
    noticeVersion: text('notice_version').notNull(),
    mimeType: text('mime_type'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    segmentBytes: integer('segment_bytes'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('video_recordings_appointment_idx').on(t.appointmentId),
    check(
      'video_recordings_status_check',
      sql`${t.status} in ('asking', 'recording', 'paused', 'stopped', 'refused', 'ready', 'failed')`,
    ),
  ],
);

/** Each person's answer to a recording's request: who, when, under which version of the notice. */
export const videoRecordingConsents = pgTable(
  'video_recording_consents',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => videoRecordings.id, { onDelete: 'cascade' }),
    peerId: text('peer_id').notNull(),
    userId: uuid('user_id').references(() => users.id),
    role: text('role').notNull(),
    decision: text('decision').notNull(),
    noticeVersion: text('notice_version').notNull(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.recordingId, t.peerId] }),
    check('video_recording_consents_decision_check', sql`${t.decision} in ('pending', 'yes', 'no')`),
  ],
);

/** What the provider's browser uploaded while recording, each part encrypted with the data keys. */
export const videoRecordingChunks = pgTable(
  'video_recording_chunks',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => videoRecordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] })],
);

/** The assembled recording (duration and seeking index fixed), in encrypted segments of `segment_bytes`. */
export const videoRecordingSegments = pgTable(
  'video_recording_segments',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => videoRecordings.id, { onDelete: 'cascade' }),
    idx: integer('idx').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.idx] })],
);

/**
 * Guests of a video visit (a family member, a second clinician), invited by its provider by e-mail: the link's
 * token (only its SHA-256 is kept) lets them join that visit only, as a guest who waits to be let in.
 */
export const videoGuests = pgTable(
  'video_guests',
  {
    id: uuid('id').primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('video_guests_appointment_idx').on(t.appointmentId),
    encryptedCheck('video_guests', t.name),
    encryptedCheck('video_guests', t.email),
  ],
);

/**
 * Clinical notes (decision 027). Title, content and tags are encrypted with the data keys; `searchTokens` is a
 * blind index (keyed HMACs of the words and their beginnings) so that search runs in the database without the
 * text. A note is a draft until its author signs it (`signedAt`); a trigger refuses any change to a signed note
 * except an unlock (signed → draft, version + 1), and any delete of one.
 */
export const notes = pgTable(
  'notes',
  {
    id: uuid('id').primaryKey(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    patientId: uuid('patient_id').references(() => patients.id),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    templateId: uuid('template_id').references(() => noteTemplates.id),
    title: text('title').notNull(),
    content: text('content').notNull(),
    tags: text('tags').notNull(),
    category: text('category').notNull().default('general'),
    priority: text('priority').notNull().default('medium'),
    /** A psychotherapy note (the specification's "private"): readable by its author only. */
    isPrivate: boolean('is_private').notNull().default(false),
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which search key made `searchTokens` (a new key re-indexes at start). */
    searchKeyId: text('search_key_id').notNull(),
    version: integer('version').notNull().default(1),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signedBy: uuid('signed_by').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('notes_author_updated_idx').on(t.authorId, t.updatedAt, t.id),
    index('notes_patient_updated_idx').on(t.patientId, t.updatedAt, t.id),
    index('notes_updated_idx').on(t.updatedAt, t.id),
    index('notes_search_tokens_idx').using('gin', t.searchTokens),
    check(
      'notes_category_check',
      sql`${t.category} in ('general', 'medical', 'appointment', 'patient', 'administrative', 'research')`,
    ),
    check('notes_priority_check', sql`${t.priority} in ('low', 'medium', 'high', 'urgent')`),
    check('notes_signed_check', sql`(${t.signedAt} IS NULL) = (${t.signedBy} IS NULL)`),
    check('notes_private_patient_check', sql`NOT ${t.isPrivate} OR ${t.patientId} IS NOT NULL`),
    ...[t.title, t.content, t.tags].map((column) => encryptedCheck('notes', column)),
  ],
);

/** Each signed version of a note, as it was signed: written once, never changed (a trigger). */
export const noteVersions = pgTable(
  'note_versions',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    tags: text('tags').notNull(),
    category: text('category').notNull(),
    priority: text('priority').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    signedBy: uuid('signed_by')
      .notNull()
      .references(() => users.id),
  },
  (t) => [
    uniqueIndex('note_versions_note_version_idx').on(t.noteId, t.version),
    ...[t.title, t.content, t.tags].map((column) => encryptedCheck('note_versions', column)),
  ],
);

/** Why a signed note was unlocked, by whom and when: the record of the change (never changed, a trigger). */
export const noteUnlocks = pgTable(
  'note_unlocks',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id),
    /** The signed version that was unlocked. */
    version: integer('version').notNull(),
    reason: text('reason').notNull(),
    unlockedBy: uuid('unlocked_by')
      .notNull()
      .references(() => users.id),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_unlocks_note_idx').on(t.noteId), encryptedCheck('note_unlocks', t.reason)],
);

/** An addendum to a signed note: signed and dated when written, never changed (a trigger). */
export const noteAddenda = pgTable(
  'note_addenda',
  {
    id: uuid('id').primaryKey(),
    noteId: uuid('note_id')
      .notNull()
      .references(() => notes.id),
    /** The note's version it was added to. */
    noteVersion: integer('note_version').notNull(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_addenda_note_idx').on(t.noteId, t.signedAt), encryptedCheck('note_addenda', t.content)],
);

/** The editor's templates: the built-in four (`key` set) and the practice's own. Not health information. */
export const noteTemplates = pgTable(
  'note_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').unique(),
    name: text('name').notNull(),
    body: text('body').notNull(),
    category: text('category').notNull().default('general'),
    isActive: boolean('is_active').notNull().default(true),
    updatedBy: uuid('updated_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    check(
      'note_templates_category_check',
      sql`${t.category} in ('general', 'medical', 'appointment', 'patient', 'administrative', 'research')`,
    ),
  ],
);

/**
 * A questionnaire (PHQ-9 or GAD-7) sent to a patient (decision 028), then its answers. The answers are encrypted
 * (with their LOINC codes); the total and band stay plain so charts and reports can read them in SQL.
 */
export const measures = pgTable(
  'measures',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    instrument: text('instrument').notNull(),
    status: text('status').notNull().default('pending'),
    /** Who sent it; null when the before-each-visit job did. */
    requestedBy: uuid('requested_by').references(() => users.id),
    /** The visit it was sent before (the standing order), if any. */
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    answers: text('answers'),
    total: integer('total'),
    band: text('band'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('measures_patient_idx').on(t.patientId, t.createdAt),
    uniqueIndex('measures_appointment_instrument_idx')
      .on(t.appointmentId, t.instrument)
      .where(sql`${t.appointmentId} IS NOT NULL`),
    check('measures_instrument_check', sql`${t.instrument} in ('phq9', 'gad7')`),
    check('measures_status_check', sql`${t.status} in ('pending', 'completed', 'cancelled')`),
    check(
      'measures_completed_check',
      sql`(${t.status} = 'completed') = (${t.completedAt} IS NOT NULL AND ${t.answers} IS NOT NULL AND ${t.total} IS NOT NULL)`,
    ),
    encryptedCheck('measures', t.answers),
  ],
);

/** A standing order: send the patient this questionnaire before each visit. */
export const measureSchedules = pgTable(
  'measure_schedules',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    instrument: text('instrument').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.instrument] }),
    check('measure_schedules_instrument_check', sql`${t.instrument} in ('phq9', 'gad7')`),
  ],
);

/**
 * A safety alert (a PHQ-9 with item 9 above 0): open until one of the patient's providers acknowledges it with a
 * note; the providers are e-mailed (no patient, no answer) and, if nobody acknowledges it in time, the
 * administrators.
 */
export const safetyAlerts = pgTable(
  'safety_alerts',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    measureId: uuid('measure_id')
      .notNull()
      .unique()
      .references(() => measures.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
    acknowledgement: text('acknowledgement'),
  },
  (t) => [
    index('safety_alerts_open_idx')
      .on(t.patientId, t.createdAt)
      .where(sql`${t.acknowledgedAt} IS NULL`),
    check(
      'safety_alerts_ack_check',
      sql`(${t.acknowledgedAt} IS NULL) = (${t.acknowledgedBy} IS NULL) AND (${t.acknowledgedAt} IS NULL) = (${t.acknowledgement} IS NULL)`,
    ),
    encryptedCheck('safety_alerts', t.acknowledgement),
  ],
);

/**
 * A signed note a provider shared with its patient (the portal's My Records). Kept beside the note, whose lock
 * trigger refuses changes to a signed note; a trigger refuses a psychotherapy note, an unsigned one, or another
 * patient. Stopping sharing deletes the row (audited).
 */
export const noteShares = pgTable(
  'note_shares',
  {
    noteId: uuid('note_id')
      .primaryKey()
      .references(() => notes.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    sharedBy: uuid('shared_by')
      .notNull()
      .references(() => users.id),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('note_shares_patient_idx').on(t.patientId, t.sharedAt)],
);

/**
 * A patient's request to correct their record (45 CFR 164.526): the field and the request (encrypted), answered by
 * the care team with accepted or declined (a reason, encrypted, required for a decline).
 */
export const recordCorrections = pgTable(
  'record_corrections',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    field: text('field').notNull(),
    request: text('request').notNull(),
    status: text('status').notNull().default('pending'),
    response: text('response'),
    answeredBy: uuid('answered_by').references(() => users.id),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('record_corrections_patient_idx').on(t.patientId, t.createdAt),
    check('record_corrections_status_check', sql`${t.status} in ('pending', 'accepted', 'declined')`),
    check(
      'record_corrections_answer_check',
      sql`(${t.status} = 'pending') = (${t.answeredAt} IS NULL) AND (${t.answeredAt} IS NULL) = (${t.answeredBy} IS NULL) AND (${t.status} <> 'declined' OR ${t.response} IS NOT NULL)`,
    ),
    encryptedCheck('record_corrections', t.request),
    encryptedCheck('record_corrections', t.response),
  ],
);

/**
 * A conversation between one patient and their care team (`clinical`) or the practice's office (`office`). The
 * subject is encrypted; its blind-index tokens let the participants search it. `patientReadAt`/`practiceReadAt`
 * are when each side last read it, `patientNotifiedAt`/`practiceNotifiedAt` when each side was last e-mailed
 * that a message waits (one mail until that side reads).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    patientReadAt: timestamp('patient_read_at', { withTimezone: true }),
    practiceReadAt: timestamp('practice_read_at', { withTimezone: true }),
    patientNotifiedAt: timestamp('patient_notified_at', { withTimezone: true }),
    practiceNotifiedAt: timestamp('practice_notified_at', { withTimezone: true }),
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which search key made `searchTokens` (a new key re-indexes at start). */
    searchKeyId: text('search_key_id').notNull(),
  },
  (t) => [
    index('conversations_patient_idx').on(t.patientId, t.lastMessageAt, t.id),
    index('conversations_kind_idx').on(t.kind, t.lastMessageAt, t.id),
    index('conversations_search_tokens_idx').using('gin', t.searchTokens),
    check('conversations_kind_check', sql`${t.kind} in ('clinical', 'office')`),
    encryptedCheck('conversations', t.subject),
  ],
);

/** One message: its text encrypted, which side wrote it, and when the other side first read it. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id),
    senderSide: text('sender_side').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    readBy: uuid('read_by').references(() => users.id),
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which search key made `searchTokens` (a new key re-indexes at start). */
    searchKeyId: text('search_key_id').notNull(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.createdAt),
    index('messages_unread_idx')
      .on(t.conversationId, t.senderSide)
      .where(sql`${t.readAt} IS NULL`),
    index('messages_search_tokens_idx').using('gin', t.searchTokens),
    check('messages_sender_side_check', sql`${t.senderSide} in ('patient', 'practice')`),
    check('messages_read_check', sql`(${t.readAt} IS NULL) = (${t.readBy} IS NULL)`),
    encryptedCheck('messages', t.body),
  ],
);

/**
 * A file attached to a message: uploaded first (pending, `messageId` null, its uploader's only), then sent with a
 * message. Name and bytes are encrypted with the data keys; the type is the one its content showed.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: uuid('id').primaryKey(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    messageId: uuid('message_id').references(() => messages.id),
    fileName: text('file_name').notNull(),
    mediaType: text('media_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('message_attachments_message_idx').on(t.messageId),
    index('message_attachments_pending_idx')
      .on(t.uploadedBy, t.createdAt)
      .where(sql`${t.messageId} IS NULL`),
    check(
      'message_attachments_media_type_check',
      sql`${t.mediaType} in ('application/pdf', 'image/png', 'image/jpeg')`,
    ),
    encryptedCheck('message_attachments', t.fileName),
  ],
);

/** A participant's archive of a conversation: out of their inbox until a new message arrives. */
export const conversationArchives = pgTable(
  'conversation_archives',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    archivedAt: timestamp('archived_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] })],
);

/**
 * API tokens an administrator creates for a log collector (decision 034): shown once, stored as a SHA-256 hash
 * (a token is 32 random bytes, so no salt or slow hash is needed), with scopes, an expiry and a revocation.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The token's last four characters, so a person can tell which token a collector holds. */
    tokenHint: text('token_hint').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [check('api_tokens_revoked_check', sql`(${t.revokedAt} IS NULL) = (${t.revokedBy} IS NULL)`)],
);

// Backups and audit retention (issue 16, decision 037): their tables live with their domain.
export * from '../practice-data/data.schema.ts';
