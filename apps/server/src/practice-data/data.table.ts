import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// The tables of backups and audit retention (migration 0025, decision 037).

/** `skipped`: a scheduled backup that found another one being written, and wrote none itself. */
export const BACKUP_STATUSES = ['running', 'succeeded', 'failed', 'skipped'] as const;
export const BACKUP_TRIGGERS = ['schedule', 'manual', 'cli'] as const;

/** Every backup run; the administrators' console shows the newest one and its age. */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    status: text('status', { enum: BACKUP_STATUSES }).notNull().default('running'),
    /** The backup file's size, once written. */
    bytes: bigint('bytes', { mode: 'number' }),
    /** The backup file's path on the server that wrote it. */
    location: text('location'),
    /** Why it failed (never health data: table names and system messages). */
    error: text('error'),
    trigger: text('trigger', { enum: BACKUP_TRIGGERS }).notNull(),
    /** Percent of the tables written, while it runs. */
    progress: integer('progress').notNull().default(0),
    /** The administrator who started it from /admin/data. */
    requestedBy: text('requested_by'),
    /**
     * When a process took the backup lock and began writing it (migration 0030); null while a run started from
     * /admin/data waits for its job. A claimed run still `running` whose lock nobody holds has died.
     */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (t) => [
    index('backup_runs_started_at_idx').on(t.startedAt),
    uniqueIndex('backup_runs_one_running_idx')
      .on(sql`(true)`)
      .where(sql`${t.status} = 'running'`),
    check('backup_runs_status_check', sql`${t.status} in ('running', 'succeeded', 'failed', 'skipped')`),
    check('backup_runs_trigger_check', sql`${t.trigger} in ('schedule', 'manual', 'cli')`),
    check('backup_runs_progress_check', sql`${t.progress} BETWEEN 0 AND 100`),
  ],
);

/**
 * An audit entry removed at the end of its retention. Its link in audit_chain stays; this row, signed with a key
 * derived from the data keys, tells verification that the content is gone by rule, not by tampering.
 */
export const auditPruned = pgTable('audit_pruned', {
  entryId: bigint('entry_id', { mode: 'number' }).primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull().unique(),
  // Microseconds, as migration 0025 made them.
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  prunedAt: timestamp('pruned_at', { withTimezone: true }).notNull().defaultNow(),
  keyId: text('key_id').notNull(),
  signature: text('signature').notNull(),
});
