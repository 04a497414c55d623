import { API_TOKEN_PREFIX, CreateApiTokenInputSchema, ERROR_CODES, RecordIdSchema } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { actorScope, scopeOf } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { AppError, notFound, parseInput } from '../errors.ts';
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

/** Bearer attempts per client address per minute on the search endpoint: a stolen-token guessing brake. */
const BEARER_RATE = { maxAttempts: 60, windowMs: 60_000 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The audit trail's API tokens for log collectors (decision 034): administrators list, create and revoke them; a
 * bearer header is checked here before the search answers it.
 */
export class ApiTokensService {
  readonly #db: Database;
  readonly #limiter: RateLimiter;

  constructor(deps: { db: Database; limiter: RateLimiter }) {
    this.#db = deps.db;
    this.#limiter = deps.limiter;
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
      await scopeOf(this.#db, caller).audit(
        tx,
        'API_TOKEN_CREATED',
        {
          apiKeyId: created.id,
          apiKeyName: created.name,
          scopes: created.scopes,
          expiresAt: created.expiresAt.toISOString(),
        },
        { level: 'WARNING' },
      );
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
      await scopeOf(this.#db, caller).audit(
        tx,
        'API_TOKEN_REVOKED',
        { apiKeyId: revoked.id, apiKeyName: revoked.name },
        { level: 'WARNING' },
      );
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
      const anonymous = {
        sessionId: null,
        userId: 'anonymous',
        userRole: 'unknown',
        clientIp: meta.ip,
        userAgent: meta.userAgent,
      };
      await actorScope(anonymous, meta.url).audit(
        this.#db,
        'UNAUTHORIZED_ACCESS',
        { permission: 'audit:read', reason: problem, apiKeyId: token?.id ?? null },
        { level: 'WARNING' },
      );
      throw problem === 'token without the audit:read scope'
        ? new AppError(ERROR_CODES.forbidden, 'auditMessages.tokenScope')
        : new AppError(ERROR_CODES.unauthenticated, 'auditMessages.tokenInvalid');
    }
    await touchApiToken(this.#db, token!.id);
    return token!;
  }
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
