import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AuditSearchFilter } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { auditChain, auditEntries } from '../audit/audit.table.ts';
import { findPeopleByIds, findUserIdsByEmail } from '../users/users.repository.ts';
import { containsPattern } from '../db/like.ts';

/** One audit entry as the search answers it, with its place in the chain once sealed. */
export interface AuditEntryView {
  id: number;
  timestamp: Date;
  sessionId: string | null;
  event: string;
  level: string;
  userId: string;
  userRole: string;
  clientIp: string | null;
  userAgent: string | null;
  url: string | null;
  referrer: string | null;
  details: unknown;
  hipaaRequired: boolean;
  retentionYears: number;
  source: 'server' | 'client';
  /** Null until the sealer has linked it into the chain (about a second after it committed). */
  chainPosition: number | null;
  checksum: string | null;
  sealedAt: Date | null;
}

/** Where a page ended: the last entry's timestamp (ISO, millisecond precision like the column) and id. */
export type AuditCursor = readonly [string, string];

export interface AuditSearchPage {
  entries: AuditEntryView[];
  /** The keyset of the page's last entry when more entries follow. */
  next: AuditCursor | null;
}

const ENTRY_COLUMNS = {
  id: auditEntries.id,
  timestamp: auditEntries.timestamp,
  sessionId: auditEntries.sessionId,
  event: auditEntries.event,
  level: auditEntries.level,
  userId: auditEntries.userId,
  userRole: auditEntries.userRole,
  clientIp: auditEntries.clientIp,
  userAgent: auditEntries.userAgent,
  url: auditEntries.url,
  referrer: auditEntries.referrer,
  details: auditEntries.details,
  hipaaRequired: auditEntries.hipaaRequired,
  retentionYears: auditEntries.retentionYears,
  source: auditEntries.source,
  chainPosition: auditChain.position,
  checksum: auditChain.checksum,
  sealedAt: auditChain.sealedAt,
};

/**
 * The conditions of a search. Each filter is a condition one of the indexes of migration 0022 answers (person,
 * event, level: a btree ending in the keyset; patient: the GIN index on details->'patientIds'); the text is a
 * filter on the rows those ranges give, so it is cheap beside another filter and bounded by the period without.
 * `personIds` is the person filter resolved to account ids (an e-mail address names one account).
 */
export function searchConditions(filter: AuditSearchFilter, personIds: string[] | null): SQL[] {
  const conditions: SQL[] = [];
  if (filter.from) conditions.push(sql`${auditEntries.timestamp} >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`${auditEntries.timestamp} <= ${filter.to.toISOString()}::timestamptz`);
  if (personIds) {
    conditions.push(
      personIds.length === 1 ? eq(auditEntries.userId, personIds[0]!) : inArray(auditEntries.userId, personIds),
    );
  }
  if (filter.event) conditions.push(eq(auditEntries.event, filter.event));
  if (filter.level) conditions.push(eq(auditEntries.level, filter.level));
  if (filter.source) conditions.push(eq(auditEntries.source, filter.source));
  if (filter.patientId) {
    // The very expression of the GIN index, so the planner can use it.
    conditions.push(sql`(${auditEntries.details} -> 'patientIds') @> ${JSON.stringify([filter.patientId])}::jsonb`);
  }
  if (filter.text) {
    const pattern = containsPattern(filter.text);
    conditions.push(
      sql`(${auditEntries.url} ILIKE ${pattern} OR ${auditEntries.details}::text ILIKE ${pattern} OR ${auditEntries.userAgent} ILIKE ${pattern})`,
    );
  }
  return conditions;
}

/**
 * The account ids a person filter names: an e-mail address is looked up (no account: no id, so nothing is found);
 * anything else is taken as the stored user id itself (an account id, `system`, `anonymous`, `api-token:…`).
 */
export async function resolvePerson(executor: Executor, person: string | undefined): Promise<string[] | null> {
  if (!person) return null;
  if (!person.includes('@')) return [person];
  return findUserIdsByEmail(executor, person);
}

/**
 * One page of a search, newest first, by keyset: (timestamp, id) below the cursor. One more row than the page is
 * read to know whether another page follows. The chain's position and checksum come by the unique index on
 * audit_chain.entry_id, for the page's rows only.
 */
export async function searchAuditEntries(
  executor: Executor,
  options: { conditions: SQL[]; limit: number; after: AuditCursor | null },
): Promise<AuditSearchPage> {
  const conditions = [...options.conditions];
  if (options.after) {
    const [timestamp, id] = options.after;
    conditions.push(sql`(${auditEntries.timestamp}, ${auditEntries.id}) < (${timestamp}::timestamptz, ${id}::bigint)`);
  }
  const rows = await executor
    .select(ENTRY_COLUMNS)
    .from(auditEntries)
    .leftJoin(auditChain, eq(auditChain.entryId, auditEntries.id))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditEntries.timestamp), desc(auditEntries.id))
    .limit(options.limit + 1);
  const entries = rows.slice(0, options.limit);
  const last = entries.at(-1);
  return {
    entries,
    next: rows.length > options.limit && last ? [last.timestamp.toISOString(), String(last.id)] : null,
  };
}

export async function findAuditEntryById(executor: Executor, id: number): Promise<AuditEntryView | null> {
  const [row] = await executor
    .select(ENTRY_COLUMNS)
    .from(auditEntries)
    .leftJoin(auditChain, eq(auditChain.entryId, auditEntries.id))
    .where(eq(auditEntries.id, id))
    .limit(1);
  return row ?? null;
}

/** The people an entry page names, by account id: name and e-mail for the screen. */
export async function findPeople(
  executor: Executor,
  userIds: string[],
): Promise<Map<string, { name: string; email: string }>> {
  const people = await findPeopleByIds(executor, userIds);
  return new Map([...people].map(([id, { name, email }]) => [id, { name, email }]));
}

/** The last verification of the chain (AUDIT_CHAIN_VERIFIED or AUDIT_CHAIN_BROKEN), recorded by the server. */
export async function findLatestChainVerification(
  executor: Executor,
): Promise<{ event: string; timestamp: Date; userId: string; details: unknown } | null> {
  const [row] = await executor
    .select({
      event: auditEntries.event,
      timestamp: auditEntries.timestamp,
      userId: auditEntries.userId,
      details: auditEntries.details,
    })
    .from(auditEntries)
    .where(
      and(
        inArray(auditEntries.event, ['AUDIT_CHAIN_VERIFIED', 'AUDIT_CHAIN_BROKEN']),
        eq(auditEntries.source, 'server'),
      ),
    )
    .orderBy(desc(auditEntries.timestamp), desc(auditEntries.id))
    .limit(1);
  return row ?? null;
}
