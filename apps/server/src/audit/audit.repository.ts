import { createHash } from 'node:crypto';
import { asc, desc, gt, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import {
  redactAuditDetails,
  retentionYearsFor,
  isHipaaEvent,
  type AuditEvent,
  type AuditLevel,
} from '@telehealth/shared';
import type { Database, Executor } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';

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
}

export const ANONYMOUS_ACTOR: Omit<AuditActor, 'clientIp' | 'userAgent'> = {
  sessionId: null,
  userId: 'anonymous',
  userRole: 'unknown',
};

const GENESIS_CHECKSUM = '0'.repeat(64);
/** Serialises appends so each entry chains to the one before it; any constant shared by every instance. */
const AUDIT_CHAIN_LOCK_KEY = 727_002;

type AuditRow = typeof auditEntries.$inferSelect;
type ChainedContent = Omit<AuditRow, 'id' | 'checksum' | 'prevChecksum'>;

/**
 * Appends entries to the audit trail inside the caller's transaction (or a new one), so an entry exists
 * exactly when the change it records does.
 */
export async function appendAuditEntries(executor: Executor, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  const run = async (tx: Executor) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_KEY})`);
    const [last] = await tx
      .select({ checksum: auditEntries.checksum })
      .from(auditEntries)
      .orderBy(desc(auditEntries.id))
      .limit(1);
    let prevChecksum = last?.checksum ?? GENESIS_CHECKSUM;
    const rows = records.map((record) => {
      const content = toContent(record);
      const checksum = computeChecksum(content, prevChecksum);
      const row = { ...content, prevChecksum, checksum };
      prevChecksum = checksum;
      return row;
    });
    await tx.insert(auditEntries).values(rows);
  };
  if (executor instanceof PgTransaction) await run(executor);
  else await executor.transaction(run);
}

export function appendAuditEntry(executor: Executor, record: AuditRecord): Promise<void> {
  return appendAuditEntries(executor, [record]);
}

function toContent(record: AuditRecord): ChainedContent {
  // Millisecond precision, like the column, so the checksum recomputes exactly from the stored row.
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
  };
}

/** SHA-256 over the entry's content in a canonical form (sorted keys) and the previous entry's checksum. */
export function computeChecksum(content: ChainedContent, prevChecksum: string): string {
  const canonical = canonicalJson({
    ...content,
    timestamp: content.timestamp.toISOString(),
    prevChecksum,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** PostgreSQL's jsonb cannot hold U+0000; dropping it keeps the stored details equal to the hashed ones. */
function stripNulChars(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '');
  if (Array.isArray(value)) return value.map(stripNulChars);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll('\u0000', ''), stripNulChars(v)]));
  }
  return value;
}

export type ChainVerification =
  { ok: true; entries: number } | { ok: false; entries: number; brokenAt: number; reason: string };

/** Walks the whole chain in order and names the first entry whose checksum or link does not hold. */
export async function verifyAuditChain(db: Database, batchSize = 5000): Promise<ChainVerification> {
  let prevChecksum = GENESIS_CHECKSUM;
  let lastId = 0;
  let count = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditEntries)
      .where(gt(auditEntries.id, lastId))
      .orderBy(asc(auditEntries.id))
      .limit(batchSize);
    for (const row of rows) {
      count += 1;
      const { id, checksum, prevChecksum: storedPrev, ...content } = row;
      if (storedPrev !== prevChecksum) {
        return {
          ok: false,
          entries: count,
          brokenAt: id,
          reason: 'does not link to the entry before it (an entry was removed or inserted)',
        };
      }
      if (computeChecksum(content, prevChecksum) !== checksum) {
        return {
          ok: false,
          entries: count,
          brokenAt: id,
          reason: 'its content does not match its checksum (the entry was changed)',
        };
      }
      prevChecksum = checksum;
      lastId = id;
    }
    if (rows.length < batchSize) return { ok: true, entries: count };
  }
}
