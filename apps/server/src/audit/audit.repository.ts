import { sql, type SQL } from 'drizzle-orm';
import {
  redactAuditDetails,
  retentionYearsFor,
  isHipaaEvent,
  type AuditEvent,
  type AuditLevel,
} from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { auditEntries } from './audit.table.ts';

/** Who did it and from where: filled from the request by the caller. */
export interface AuditActor {
  sessionId: string | null;
  userId: string;
  userRole: string;
  clientIp: string | null;
  userAgent: string | null;
}

export interface AuditRecord {
  event: AuditEvent;
  level: AuditLevel;
  actor: AuditActor;
  url?: string | null;
  referrer?: string | null;
  details?: Record<string, unknown>;
  timestamp?: Date;
  /** `client` for what a browser reported (decision 034); the server's own entries leave it out. */
  source?: 'server' | 'client';
}

export const ANONYMOUS_ACTOR: Omit<AuditActor, 'clientIp' | 'userAgent'> = {
  sessionId: null,
  userId: 'anonymous',
  userRole: 'unknown',
};

/** The server acting on its own (start-up work, jobs). */
export const SYSTEM_ACTOR: AuditActor = {
  sessionId: null,
  userId: 'system',
  userRole: 'system',
  clientIp: null,
  userAgent: null,
};

type AuditEntryValues = Omit<typeof auditEntries.$inferInsert, 'id' | 'xactId'>;

/**
 * Appends entries to the audit trail in the caller's transaction (or on their own), so an entry exists
 * exactly when the change it records does. One plain INSERT: no lock and no read of the entry before, so
 * audited transactions never wait for each other. The sealer chains the entries once they have committed
 * (audit-chain.ts).
 */
export async function appendAuditEntries(executor: Executor, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  await executor.insert(auditEntries).values(records.map(toValues));
}

export function appendAuditEntry(executor: Executor, record: AuditRecord): Promise<void> {
  return appendAuditEntries(executor, [record]);
}

/**
 * The INSERT of one audit entry as SQL, to run as a data-modifying CTE of the read it records: the read and
 * its entry are then one statement (one round trip, no BEGIN and COMMIT), and the entry exists exactly when
 * the read took place. `extraDetails`, a jsonb expression evaluated by the same statement (the ids of the rows
 * read, say), is merged into the record's details. With `from`, one entry is written per row of it (none
 * when the read found nothing); without, exactly one.
 */
export function auditEntryInsertSql(record: AuditRecord, options: { extraDetails?: SQL; from?: SQL } = {}): SQL {
  const values = toValues(record);
  const columns = sql.join(
    [
      auditEntries.timestamp,
      auditEntries.sessionId,
      auditEntries.event,
      auditEntries.level,
      auditEntries.userId,
      auditEntries.userRole,
      auditEntries.clientIp,
      auditEntries.userAgent,
      auditEntries.url,
      auditEntries.referrer,
      auditEntries.details,
      auditEntries.hipaaRequired,
      auditEntries.retentionYears,
    ].map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  const details = options.extraDetails
    ? sql`${JSON.stringify(values.details)}::jsonb || ${options.extraDetails}`
    : sql`${JSON.stringify(values.details)}::jsonb`;
  return sql`INSERT INTO ${auditEntries} (${columns})
    SELECT ${values.timestamp.toISOString()}::timestamptz, ${values.sessionId}::text, ${values.event}::text,
      ${values.level}::text, ${values.userId}::text, ${values.userRole}::text, ${values.clientIp}::text,
      ${values.userAgent}::text, ${values.url}::text, ${values.referrer}::text, ${details},
      ${values.hipaaRequired}::boolean, ${values.retentionYears}::int
    ${options.from ? sql`FROM ${options.from}` : sql``}`;
}

function toValues(record: AuditRecord): AuditEntryValues & { timestamp: Date; details: unknown } {
  // Millisecond precision, like the column, so the stored time is the one given.
  const timestamp = new Date(Math.floor((record.timestamp ?? new Date()).getTime()));
  return {
    timestamp,
    sessionId: record.actor.sessionId,
    event: record.event,
    level: record.level,
    userId: record.actor.userId,
    userRole: record.actor.userRole,
    clientIp: record.actor.clientIp,
    userAgent: record.actor.userAgent,
    url: record.url ?? null,
    referrer: record.referrer ?? null,
    details: stripNulChars(redactAuditDetails(record.details ?? {})),
    hipaaRequired: isHipaaEvent(record.event),
    retentionYears: retentionYearsFor(record.event),
    source: record.source ?? 'server',
  };
}

/** PostgreSQL's jsonb cannot hold U+0000: drop it rather than fail the change the entry records. */
function stripNulChars(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '');
  if (Array.isArray(value)) return value.map(stripNulChars);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll('\u0000', ''), stripNulChars(v)]));
  }
  return value;
}
