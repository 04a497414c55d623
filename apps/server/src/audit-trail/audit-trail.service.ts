import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AUDIT_INTAKE_RATE,
  AUDIT_SEARCH_PAGE_SIZE,
  AuditSearchFilterSchema,
  RecordIdSchema,
  type AuditSearchFilter,
  type ClientAuditEntrySchema,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { actorScope, scopeOf, type ActorScope, type Scope } from '../access/scope.ts';
import { auditAnchorsPath, readAuditAnchors } from '../audit/audit-anchors.ts';
import { verifyAuditTrail } from '../audit/audit-chain.ts';
import type { Keyring } from '../keys/keyring.ts';
import { type PrunedLink, prunedSignatureVerifier } from '../practice-data/audit-retention.ts';
import { appendAuditEntries, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import { CursorCodec } from '../db/cursor.ts';
import type { Database } from '../db/client.ts';
import { badUserInput, notFound, parseInput } from '../errors.ts';
import { rateLimited, type RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { ApiTokenRow } from './api-tokens.repository.ts';
import {
  findAuditEntryById,
  findLatestChainVerification,
  findPeople,
  resolvePerson,
  searchAuditEntries,
  searchConditions,
  type AuditCursor,
  type AuditEntryView,
} from './audit-search.repository.ts';

/** A search that runs longer is stopped and the caller asked to narrow it (decision 034). */
const SEARCH_TIMEOUT_MS = 15_000;

export interface AuditSearchResult {
  entries: AuditEntryView[];
  people: Map<string, { name: string; email: string }>;
  nextCursor: string | null;
}

/** A verification of the chain as recorded in its audit entry's details (what the console shows). */
export const ChainVerificationSchema = z.object({
  ok: z.boolean(),
  entriesChecked: z.number(),
  checkedAt: z.string(),
  brokenAt: z.number().nullable().default(null),
  reason: z.string().nullable().default(null),
  anchorsChecked: z.number().default(0),
  anchorProblems: z.array(z.string()).default([]),
  unsealed: z.number().default(0),
  stranded: z.number().default(0),
});
export type ChainVerification = z.infer<typeof ChainVerificationSchema> & { verifiedBy: string };

type ClientEntry = z.output<typeof ClientAuditEntrySchema>;

/**
 * The audit trail for administrators and log collectors (decision 034): search, one entry's detail, verifying the
 * chain, and the browser's own events (the API tokens are `ApiTokensService`'s). Every search and read is itself
 * audited.
 */
export class AuditTrailService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #limiter: RateLimiter;
  readonly #cursor: CursorCodec<AuditCursor>;
  #verifying = false;

  readonly #prunedSignature: (link: PrunedLink) => boolean;

  constructor(deps: { db: Database; config: Config; secret: string; limiter: RateLimiter; keyring: Keyring }) {
    // The removals recorded by retention are checked against their signatures, as `npm run audit:verify` does.
    this.#prunedSignature = prunedSignatureVerifier(deps.keyring);
    this.#db = deps.db;
    this.#config = deps.config;
    this.#limiter = deps.limiter;
    this.#cursor = new CursorCodec<AuditCursor>(`${deps.secret}:audit-search`, 2);
  }

  /** Administrators: one page of the search. Audited (AUDIT_SEARCH). */
  async search(
    caller: Caller,
    input: unknown,
    page: { first?: number | null; after?: string | null } = {},
  ): Promise<AuditSearchResult> {
    await authorize(this.#db, caller, 'audit:read');
    const filter = parseInput(AuditSearchFilterSchema, input ?? {});
    const limit = Math.min(Math.max(page.first ?? AUDIT_SEARCH_PAGE_SIZE, 1), 200);
    return this.#search(scopeOf(this.#db, caller), filter, limit, page.after ?? null, { via: 'session' });
  }

  /**
   * A log collector's API token (already checked by `ApiTokensService.authenticateBearer`): one page of the search.
   * Audited.
   */
  searchWithToken(
    token: ApiTokenRow,
    meta: { ip: string | null; userAgent: string | null; url: string },
    filter: AuditSearchFilter,
    limit: number,
    after: string | null,
  ): Promise<AuditSearchResult> {
    return this.#search(actorScope(tokenActor(token, meta), meta.url), filter, limit, after, {
      via: 'api-token',
      apiKeyId: token.id,
    });
  }

  async #search(
    scope: Scope | ActorScope,
    filter: AuditSearchFilter,
    limit: number,
    after: string | null,
    how: Record<string, unknown>,
  ): Promise<AuditSearchResult> {
    const cursor = after ? this.#cursor.decode(after) : null;
    const page = await this.#db
      .transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${SEARCH_TIMEOUT_MS}`));
        const personIds = await resolvePerson(tx, filter.person);
        const result = await searchAuditEntries(tx, {
          conditions: searchConditions(filter, personIds),
          limit,
          after: cursor,
        });
        const people = await findPeople(
          tx,
          result.entries.map((e) => e.userId),
        );
        return { ...result, people };
      })
      .catch((error: unknown) => {
        if (isQueryCanceled(error)) throw badUserInput('auditMessages.searchTooBroad');
        throw error;
      });
    // The search itself, with what was asked (the text only by its length: it may name a person or a condition).
    await scope.audit(this.#db, 'AUDIT_SEARCH', {
      ...how,
      filters: {
        from: filter.from?.toISOString() ?? null,
        to: filter.to?.toISOString() ?? null,
        person: filter.person ?? null,
        event: filter.event ?? null,
        level: filter.level ?? null,
        patientId: filter.patientId ?? null,
        source: filter.source ?? null,
        textLength: filter.text?.length ?? 0,
      },
      page: cursor ? 'next' : 'first',
      results: page.entries.length,
    });
    return {
      entries: page.entries,
      people: page.people,
      nextCursor: page.next ? this.#cursor.encode(page.next) : null,
    };
  }

  /** Administrators: one entry in full, with its place in the chain. Audited (AUDIT_ENTRY_VIEW). */
  async entry(
    caller: Caller,
    rawId: string,
  ): Promise<{ entry: AuditEntryView; person: { name: string; email: string } | null }> {
    await authorize(this.#db, caller, 'audit:read');
    const id = Number(parseInput(RecordIdSchema, rawId));
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound('auditMessages.entryNotFound');
    const entry = await findAuditEntryById(this.#db, id);
    if (!entry) throw notFound('auditMessages.entryNotFound');
    const people = await findPeople(this.#db, [entry.userId]);
    await scopeOf(this.#db, caller).audit(this.#db, 'AUDIT_ENTRY_VIEW', { entryId: id });
    return { entry, person: people.get(entry.userId) ?? null };
  }

  /**
   * Administrators: walks the whole chain now and checks the anchors in DATA_DIR (like `npm run audit:verify`),
   * then records the outcome: AUDIT_CHAIN_VERIFIED, or AUDIT_CHAIN_BROKEN at level ERROR. One at a time per
   * instance.
   */
  async verifyChain(caller: Caller): Promise<ChainVerification> {
    await authorize(this.#db, caller, 'audit:read');
    if (this.#verifying) throw badUserInput('auditMessages.verificationBusy');
    this.#verifying = true;
    try {
      const anchorsFile = readAuditAnchors(auditAnchorsPath(this.#config.dataDir));
      const result = await verifyAuditTrail(this.#db, {
        anchors: anchorsFile?.anchors ?? [],
        prunedSignature: this.#prunedSignature,
      });
      const checkedAt = new Date();
      const verification = {
        ok: result.ok,
        entriesChecked: result.positions,
        checkedAt: checkedAt.toISOString(),
        brokenAt: result.broken?.position ?? null,
        reason: result.broken?.reason ?? null,
        anchorsChecked: result.anchors.checked,
        anchorProblems: result.anchors.problems.slice(0, 10).map((p) => p.reason),
        unsealed: result.unsealed.count,
        stranded: result.unsealed.stranded,
      };
      await scopeOf(this.#db, caller).audit(
        this.#db,
        result.ok ? 'AUDIT_CHAIN_VERIFIED' : 'AUDIT_CHAIN_BROKEN',
        verification,
        { level: result.ok ? 'INFO' : 'ERROR', timestamp: checkedAt },
      );
      return { ...verification, verifiedBy: caller.user.id };
    } finally {
      this.#verifying = false;
    }
  }

  /** Administrators: the last verification recorded (by anyone), or null when the chain was never verified. */
  async latestVerification(caller: Caller): Promise<ChainVerification | null> {
    await authorize(this.#db, caller, 'audit:read');
    const row = await findLatestChainVerification(this.#db);
    if (!row) return null;
    const parsed = ChainVerificationSchema.safeParse(row.details);
    return parsed.success ? { ...parsed.data, verifiedBy: row.userId } : null;
  }

  /**
   * Stores what a signed-in browser reports, marked `client`: the person, role, session, address and agent are
   * the request's (never the body's); the details are redacted like every entry's, with the browser's own time,
   * audit session and batch kept beside them. Audit requests per account are limited.
   */
  async recordClientEntries(
    caller: Caller,
    entries: ClientEntry[],
    batch: { batchId: string | null; sentAt: string | null },
  ): Promise<number> {
    const wait = await this.#limiter.consume(this.#db, 'audit-intake', caller.user.id, AUDIT_INTAKE_RATE);
    if (wait > 0) throw rateLimited(wait);
    const receivedAt = new Date();
    await appendAuditEntries(
      this.#db,
      entries.map((entry) => ({
        event: entry.event,
        level: entry.level,
        actor: caller.actor,
        url: entry.url ?? null,
        referrer: entry.referrer ?? null,
        timestamp: receivedAt,
        source: 'client' as const,
        details: {
          ...entry.details,
          clientTimestamp: entry.timestamp ?? null,
          clientSessionId: entry.sessionId ?? null,
          batchId: batch.batchId,
          batchSentAt: batch.sentAt,
        },
      })),
    );
    return entries.length;
  }
}

function tokenActor(token: ApiTokenRow, meta: { ip: string | null; userAgent: string | null }): AuditActor {
  return {
    sessionId: null,
    userId: `api-token:${token.id}`,
    userRole: 'api-token',
    clientIp: meta.ip,
    userAgent: meta.userAgent,
  };
}

function isQueryCanceled(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '57014') return true;
  }
  return false;
}
