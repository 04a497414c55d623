import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

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
    // The retention job's expired entries (migration 0025).
    index('audit_entries_expiry_idx').on(t.retentionYears, t.timestamp),
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
