import { createHash } from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { auditChain, auditEntries } from './audit.table.ts';
import { auditPruned } from '../practice-data/data.table.ts';
import type { PrunedLink } from '../practice-data/audit-retention.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';

// The chain over the audit trail (decision 015). Entries are inserted without a checksum; the sealer, one at a
// time, links committed entries into audit_chain in a deterministic order: by inserting transaction, then id,
// and only entries of transactions older than every transaction still running (pg_snapshot_xmin), so that no
// entry can ever commit into a place before one already sealed.

const GENESIS_CHECKSUM = '0'.repeat(64);
/** Taken by the sealer only (never by audited transactions): one sealer at a time across instances. */
const AUDIT_SEALER_LOCK_KEY = ADVISORY_LOCKS.auditSealer;
const SEAL_BATCH = 1000;

type EntryRow = typeof auditEntries.$inferSelect;
/** What a checksum covers: the entry's fields (the specification's), not its id or transaction. */
type ChainedContent = Omit<EntryRow, 'id' | 'xactId' | 'source'> & { source?: EntryRow['source'] };

/** The chain's head at a moment, kept outside the database (audit-anchors.ts). */
export interface AuditAnchor {
  position: number;
  checksum: string;
  /** When it was anchored, ISO 8601. */
  at: string;
}

/** The last sealed position. */
export interface ChainHead {
  position: number;
  checksum: string;
  entryId: number;
  xactId: string;
}

/** SHA-256 over the entry's content in a canonical form (sorted keys) and the previous position's checksum. */
export function computeChecksum(content: ChainedContent, prevChecksum: string): string {
  const canonical = canonicalJson({
    timestamp: content.timestamp.toISOString(),
    sessionId: content.sessionId,
    event: content.event,
    level: content.level,
    userId: content.userId,
    userRole: content.userRole,
    clientIp: content.clientIp,
    userAgent: content.userAgent,
    url: content.url,
    referrer: content.referrer,
    details: content.details,
    hipaaRequired: content.hipaaRequired,
    retentionYears: content.retentionYears,
    // Covered only for a browser's entry, so every entry sealed before the column existed keeps its checksum,
    // and turning a browser's report into a server fact (or back) breaks the chain (decision 034).
    source: content.source === 'client' ? 'client' : undefined,
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

export async function readChainHead(executor: Executor): Promise<ChainHead | null> {
  const [head] = await executor
    .select({
      position: auditChain.position,
      checksum: auditChain.checksum,
      entryId: auditChain.entryId,
      xactId: auditChain.xactId,
    })
    .from(auditChain)
    .orderBy(desc(auditChain.position))
    .limit(1);
  return head ?? null;
}

export interface SealResult {
  /** Entries linked into the chain by this call. */
  sealed: number;
  head: ChainHead | null;
  /** Another sealer held the lock, so this call sealed nothing (the other one does the work). */
  busy: boolean;
}

/**
 * Links the committed, not yet sealed entries into the chain, in batches of `batchSize` per transaction.
 * Entries of a transaction that is still running, or that is newer than one still running, wait for the
 * next call. Another sealer at work makes this call return at once (`busy`), unless `wait` is set.
 */
export async function sealAuditChain(
  db: Database,
  options: { batchSize?: number; wait?: boolean } = {},
): Promise<SealResult> {
  const batchSize = options.batchSize ?? SEAL_BATCH;
  let sealed = 0;
  let head: ChainHead | null = null;
  for (;;) {
    const round = await db.transaction(async (tx) => {
      if (options.wait) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${AUDIT_SEALER_LOCK_KEY})`);
      } else {
        const lock = await tx.execute<{ locked: boolean }>(
          sql`SELECT pg_try_advisory_xact_lock(${AUDIT_SEALER_LOCK_KEY}) AS locked`,
        );
        if (!lock.rows[0]?.locked) return null;
      }
      const last = await readChainHead(tx);
      // One statement, so the horizon and the rows read come from the same snapshot: every transaction below
      // pg_snapshot_xmin has ended, and its entries (if it committed) are visible to this very read.
      const rows = await tx
        .select()
        .from(auditEntries)
        .where(
          sql`(${auditEntries.xactId}, ${auditEntries.id}) > (${last?.xactId ?? '0'}::xid8, ${last?.entryId ?? 0}::bigint)
            AND ${auditEntries.xactId} < pg_snapshot_xmin(pg_current_snapshot())`,
        )
        .orderBy(asc(auditEntries.xactId), asc(auditEntries.id))
        .limit(batchSize);
      let position = last?.position ?? 0;
      let prevChecksum = last?.checksum ?? GENESIS_CHECKSUM;
      const links = rows.map(({ id, xactId, ...content }) => {
        position += 1;
        const checksum = computeChecksum(content, prevChecksum);
        const link = { position, entryId: id, xactId, prevChecksum, checksum };
        prevChecksum = checksum;
        return link;
      });
      if (links.length > 0) await tx.insert(auditChain).values(links);
      const newest = links.at(-1);
      const roundHead: ChainHead | null = newest
        ? { position: newest.position, checksum: newest.checksum, entryId: newest.entryId, xactId: newest.xactId }
        : last;
      return { count: links.length, head: roundHead };
    });
    if (!round) return { sealed, head, busy: true };
    sealed += round.count;
    head = round.head;
    if (round.count < batchSize) return { sealed, head, busy: false };
  }
}

export interface ChainBreak {
  position: number;
  entryId: number | null;
  reason: string;
}

export interface AnchorProblem {
  anchor: AuditAnchor;
  reason: string;
}

export interface AuditVerification {
  /** The chain holds, every anchor matches it and no entry is stranded behind the head. */
  ok: boolean;
  /** Positions walked (all of them, also past a break). */
  positions: number;
  head: ChainHead | null;
  /** The first position whose link or content does not hold. */
  broken: ChainBreak | null;
  anchors: { checked: number; newest: AuditAnchor | null; problems: AnchorProblem[] };
  unsealed: {
    /** Committed entries not in the chain yet (normal for about a second after they are written). */
    count: number;
    oldest: Date | null;
    /** Unsealed entries ordered before the head, which no sealer would ever reach: inserted behind its back. */
    stranded: number;
  };
}

/**
 * Walks the chain in seal order and checks each position's link and its entry's content, then each anchor (a
 * head recorded outside the database) against the chain, and counts the entries not sealed yet.
 */
export async function verifyAuditTrail(
  db: Database,
  options: {
    anchors?: AuditAnchor[];
    batchSize?: number;
    /**
     * Checks the signature of an entry removed at the end of its retention (decision 037:
     * prunedSignatureVerifier(keyring)). Without it a removal recorded in audit_pruned is accepted as recorded.
     */
    prunedSignature?: (link: PrunedLink) => boolean;
  } = {},
): Promise<AuditVerification> {
  const batchSize = options.batchSize ?? 5000;
  const anchorsAt = new Map<number, AuditAnchor[]>();
  for (const anchor of options.anchors ?? []) {
    anchorsAt.set(anchor.position, [...(anchorsAt.get(anchor.position) ?? []), anchor]);
  }
  const anchorProblems: AnchorProblem[] = [];
  let checked = 0;
  let broken: ChainBreak | null = null;
  let prevChecksum = GENESIS_CHECKSUM;
  let prevOrder: [bigint, number] = [-1n, 0];
  let lastPosition = 0;
  let head: ChainHead | null = null;

  for (;;) {
    const rows = await db
      .select({ link: auditChain, entry: auditEntries, pruned: auditPruned })
      .from(auditChain)
      .leftJoin(auditEntries, eq(auditEntries.id, auditChain.entryId))
      .leftJoin(auditPruned, eq(auditPruned.entryId, auditChain.entryId))
      .where(sql`${auditChain.position} > ${lastPosition}`)
      .orderBy(asc(auditChain.position))
      .limit(batchSize);
    for (const { link, entry, pruned } of rows) {
      if (!broken) {
        broken = checkLink(link, entry, { expected: lastPosition + 1, prevChecksum, prevOrder }, (at) =>
          checkPruned(link, pruned, options.prunedSignature, at),
        );
      }
      for (const anchor of anchorsAt.get(link.position) ?? []) {
        checked += 1;
        if (anchor.checksum !== link.checksum) {
          anchorProblems.push({
            anchor,
            reason: `position ${link.position} no longer has the checksum anchored then: the chain was changed after it was anchored`,
          });
        }
      }
      prevChecksum = link.checksum;
      prevOrder = [BigInt(link.xactId), link.entryId];
      lastPosition = link.position;
      head = { position: link.position, checksum: link.checksum, entryId: link.entryId, xactId: link.xactId };
    }
    if (rows.length < batchSize) break;
  }
  for (const [position, anchors] of anchorsAt) {
    if (position <= lastPosition) continue;
    for (const anchor of anchors) {
      checked += 1;
      anchorProblems.push({
        anchor,
        reason: `it names position ${position}, beyond the chain's head (${lastPosition}): the newest entries were removed`,
      });
    }
  }
  const newest = (options.anchors ?? []).reduce<AuditAnchor | null>(
    (best, anchor) => (!best || anchor.position >= best.position ? anchor : best),
    null,
  );

  const [unsealed] = await db
    .execute<{ count: number; oldest: string | null; stranded: number }>(
      sql`
    SELECT count(*)::int AS count, min(e.timestamp)::text AS oldest,
           count(*) FILTER (WHERE (e.xact_id, e.id) < (${head?.xactId ?? '0'}::xid8, ${head?.entryId ?? 0}::bigint))::int AS stranded
    FROM ${auditEntries} e
    WHERE NOT EXISTS (SELECT 1 FROM ${auditChain} c WHERE c.entry_id = e.id)`,
    )
    .then((r) => r.rows);
  const stranded = unsealed?.stranded ?? 0;

  return {
    ok: !broken && anchorProblems.length === 0 && stranded === 0,
    positions: lastPosition,
    head,
    broken,
    anchors: { checked, newest, problems: anchorProblems },
    unsealed: {
      count: unsealed?.count ?? 0,
      oldest: unsealed?.oldest ? new Date(unsealed.oldest) : null,
      stranded,
    },
  };
}

/** A link whose entry is gone: fine only when audit_pruned records its expiry, under a valid signature. */
function checkPruned(
  link: typeof auditChain.$inferSelect,
  pruned: typeof auditPruned.$inferSelect | null,
  verify: ((link: PrunedLink) => boolean) | undefined,
  at: { position: number; entryId: number },
): ChainBreak | null {
  if (!pruned || pruned.position !== link.position)
    return { ...at, reason: `its entry (id ${link.entryId}) was removed` };
  const signed = { ...pruned, checksum: link.checksum };
  if (pruned.expiresAt > pruned.prunedAt || (verify && !verify(signed))) {
    return { ...at, reason: `its entry (id ${link.entryId}) was removed, and the record of its expiry is not valid` };
  }
  return null;
}

function checkLink(
  link: typeof auditChain.$inferSelect,
  entry: EntryRow | null,
  before: { expected: number; prevChecksum: string; prevOrder: [bigint, number] },
  whenRemoved: (at: { position: number; entryId: number }) => ChainBreak | null,
): ChainBreak | null {
  const at = { position: link.position, entryId: link.entryId };
  if (link.position !== before.expected) {
    const missing =
      link.position === before.expected + 1
        ? `position ${before.expected} is missing`
        : `positions ${before.expected}-${link.position - 1} are missing`;
    return { position: before.expected, entryId: null, reason: `${missing} (sealed entries were removed)` };
  }
  if (link.prevChecksum !== before.prevChecksum) {
    return { ...at, reason: 'it does not link to the position before it (an entry was removed or inserted)' };
  }
  if (!entry) {
    const removed = whenRemoved(at);
    if (removed) return removed;
  } else if (computeChecksum(withoutIds(entry), before.prevChecksum) !== link.checksum) {
    return { ...at, reason: 'its content does not match its checksum (the entry was changed)' };
  }
  const [prevXact, prevId] = before.prevOrder;
  const xact = BigInt(link.xactId);
  if (xact < prevXact || (xact === prevXact && link.entryId <= prevId)) {
    return { ...at, reason: 'it is sealed out of order (the chain was rewritten)' };
  }
  return null;
}

function withoutIds(entry: EntryRow): ChainedContent {
  const { id: _id, xactId: _xactId, ...content } = entry;
  return content;
}
