import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  API_TOKEN_PREFIX,
  AUDIT_INTAKE_RATE,
  AUDIT_SEARCH_PAGE_SIZE,
  AuditSearchFilterSchema,
  CreateApiTokenInputSchema,
  ERROR_CODES,
  RecordIdSchema,
  type AuditSearchFilter,
  type ClientAuditEntrySchema,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { auditAnchorsPath, readAuditAnchors } from '../audit/audit-anchors.ts';
import { verifyAuditTrail } from '../audit/audit-chain.ts';
import type { Keyring } from '../keys/keyring.ts';
import { type PrunedLink, prunedSignatureVerifier } from '../practice-data/audit-retention.ts';
import { appendAuditEntries, appendAuditEntry, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import { CursorCodec } from '../db/cursor.ts';
import type { Database } from '../db/client.ts';
import { AppError, badUserInput, notFound, parseInput } from '../errors.ts';
import { rateLimited, type RateLimiter } from '../rate-limit/rate-limiter.ts';
import {
  findApiTokenById,
  findApiTokenBySecret,
  generateApiTokenSecret,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  touchApiToken,
  type ApiTokenRow,
  type ApiTokenView,
} from './api-tokens.repository.ts';
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
/** Bearer attempts per client address per minute on the search endpoint: a stolen-token guessing brake. */
const BEARER_RATE = { maxAttempts: 60, windowMs: 60_000 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

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
 * chain, API tokens, and the browser's own events. Every search and read is itself audited.
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
    return this.#search(caller.actor, caller.operation, filter, limit, page.after ?? null, { via: 'session' });
  }

  /** A log collector's API token (already checked by `authenticateBearer`): one page of the search. Audited. */
  searchWithToken(
    token: ApiTokenRow,
    meta: { ip: string | null; userAgent: string | null; url: string },
    filter: AuditSearchFilter,
    limit: number,
    after: string | null,
  ): Promise<AuditSearchResult> {
    return this.#search(tokenActor(token, meta), meta.url, filter, limit, after, {
      via: 'api-token',
      apiKeyId: token.id,
    });
  }

  async #search(
    actor: AuditActor,
    url: string,
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
    await appendAuditEntry(this.#db, {
      event: 'AUDIT_SEARCH',
      level: 'INFO',
      actor,
      url,
      details: {
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
      },
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
    await appendAuditEntry(this.#db, {
      event: 'AUDIT_ENTRY_VIEW',
      level: 'INFO',
      actor: caller.actor,
      url: caller.operation,
      details: { entryId: id },
    });
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
      await appendAuditEntry(this.#db, {
        event: result.ok ? 'AUDIT_CHAIN_VERIFIED' : 'AUDIT_CHAIN_BROKEN',
        level: result.ok ? 'INFO' : 'ERROR',
        actor: caller.actor,
        url: caller.operation,
        timestamp: checkedAt,
        details: verification,
      });
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

  async listTokens(caller: Caller): Promise<ApiTokenView[]> {
    await authorize(this.#db, caller, 'api-token:manage');
    return listApiTokens(this.#db);
  }

  /** Administrators: a new token; its secret is answered this once and only its hash is kept. Audited. */
  async createToken(caller: Caller, input: unknown): Promise<{ token: ApiTokenView; secret: string }> {
    await authorize(this.#db, caller, 'api-token:manage');
    const values = parseInput(CreateApiTokenInputSchema, input);
    const secret = generateApiTokenSecret();
    const row = await this.#db.transaction(async (tx) => {
      const created = await insertApiToken(tx, {
        name: values.name,
        secret,
        scopes: [...new Set(values.scopes)],
        createdBy: caller.user.id,
        expiresAt: new Date(Date.now() + values.expiresInDays * DAY_MS),
      });
      await appendAuditEntry(tx, {
        event: 'API_TOKEN_CREATED',
        level: 'WARNING',
        actor: caller.actor,
        url: caller.operation,
        details: {
          apiKeyId: created.id,
          apiKeyName: created.name,
          scopes: created.scopes,
          expiresAt: created.expiresAt.toISOString(),
        },
      });
      return created;
    });
    return { token: { ...viewOf(row), createdByName: caller.user.name }, secret };
  }

  /** Administrators: revokes a token at once (its next call is refused). Audited. NOT_FOUND when unknown. */
  async revokeToken(caller: Caller, rawId: string): Promise<ApiTokenView> {
    await authorize(this.#db, caller, 'api-token:manage');
    const id = parseInput(RecordIdSchema, rawId);
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('auditMessages.tokenNotFound');
    const row = await this.#db.transaction(async (tx) => {
      const revoked = await revokeApiToken(tx, id, caller.user.id);
      if (!revoked) return findApiTokenById(tx, id);
      await appendAuditEntry(tx, {
        event: 'API_TOKEN_REVOKED',
        level: 'WARNING',
        actor: caller.actor,
        url: caller.operation,
        details: { apiKeyId: revoked.id, apiKeyName: revoked.name },
      });
      return revoked;
    });
    if (!row) throw notFound('auditMessages.tokenNotFound');
    return viewOf(row);
  }

  /**
   * The token an `Authorization: Bearer` header opens for audit:read, or a refusal: 401 for no, an unknown, an
   * expired or a revoked token, 403 for a token without the scope. Each refusal of a presented token is audited
   * as UNAUTHORIZED_ACCESS; attempts per address are limited.
   */
  async authenticateBearer(
    header: string,
    meta: { ip: string | null; userAgent: string | null; url: string },
  ): Promise<ApiTokenRow> {
    const wait = await this.#limiter.consume(this.#db, 'audit-bearer', meta.ip ?? 'unknown', BEARER_RATE);
    if (wait > 0) throw rateLimited(wait);
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!secret?.startsWith(API_TOKEN_PREFIX) || secret.length > 200) {
      throw new AppError(ERROR_CODES.unauthenticated, 'auditMessages.tokenRequired');
    }
    const token = await findApiTokenBySecret(this.#db, secret);
    const now = Date.now();
    const problem = !token
      ? 'unknown token'
      : token.revokedAt
        ? 'revoked token'
        : token.expiresAt.getTime() <= now
          ? 'expired token'
          : !token.scopes.includes('audit:read')
            ? 'token without the audit:read scope'
            : null;
    if (problem) {
      await appendAuditEntry(this.#db, {
        event: 'UNAUTHORIZED_ACCESS',
        level: 'WARNING',
        actor: {
          sessionId: null,
          userId: 'anonymous',
          userRole: 'unknown',
          clientIp: meta.ip,
          userAgent: meta.userAgent,
        },
        url: meta.url,
        details: { permission: 'audit:read', reason: problem, apiKeyId: token?.id ?? null },
      });
      throw problem === 'token without the audit:read scope'
        ? new AppError(ERROR_CODES.forbidden, 'auditMessages.tokenScope')
        : new AppError(ERROR_CODES.unauthenticated, 'auditMessages.tokenInvalid');
    }
    await touchApiToken(this.#db, token!.id);
    return token!;
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

function viewOf(row: ApiTokenRow): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    tokenHint: row.tokenHint,
    scopes: row.scopes,
    createdAt: row.createdAt,
    createdByName: null,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

function isQueryCanceled(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '57014') return true;
  }
  return false;
}
