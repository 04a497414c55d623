import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUDIT_BATCH_HEADER,
  AUDIT_BATCH_MAX_BYTES,
  AUDIT_CRITICAL_HEADER,
  AUDIT_CRITICAL_PATH,
  AUDIT_LOGS_PATH,
  AUDIT_SEARCH_PATH,
  AuditApiSearchQuerySchema,
  AuditBatchSchema,
  AuditSearchFilterSchema,
  ClientAuditEntrySchema,
  ERROR_CODES,
  fieldProblems,
  type MessageId,
} from '@telehealth/shared';
import type { z } from 'zod';
import { callerOfRequest, type Caller } from '../access/caller.ts';
import { AppError } from '../errors.ts';
import type { ApiTokensService } from './api-tokens.service.ts';
import type { AuditEntryView } from './audit-search.repository.ts';
import type { AuditTrailService } from './audit-trail.service.ts';

/**
 * The specification's audit endpoints (decision 034), plain HTTP beside GraphQL:
 * - POST /api/audit/logs (header X-Audit-Batch; body logs, batchId, timestamp) and POST /api/audit/critical
 *   (header X-Audit-Critical; one entry): a signed-in browser's own events, stored marked `client`.
 * - GET /api/audit/search (startDate, endDate, userId, event, level, limit = 100; and cursor, patientId, text,
 *   source): an administrator's session or a log collector's bearer API token with the audit:read scope.
 */
export function registerAuditRoutes(
  app: FastifyInstance,
  auditTrail: AuditTrailService,
  apiTokens: ApiTokensService,
): void {
  app.post(
    AUDIT_LOGS_PATH,
    { config: { session: 'required' }, bodyLimit: AUDIT_BATCH_MAX_BYTES },
    async (request, reply) => {
      requireHeader(request, AUDIT_BATCH_HEADER, 'X-Audit-Batch');
      const batch = parseOr(AuditBatchSchema, request.body, 'auditMessages.invalidBatch');
      const accepted = await auditTrail.recordClientEntries(callerOfRequest(request, 'auditLogs'), batch.logs, {
        batchId: batch.batchId,
        sentAt: batch.timestamp,
      });
      return reply.code(202).header('cache-control', 'no-store').send({ accepted, batchId: batch.batchId });
    },
  );

  app.post(
    AUDIT_CRITICAL_PATH,
    { config: { session: 'required' }, bodyLimit: AUDIT_BATCH_MAX_BYTES },
    async (request, reply) => {
      requireHeader(request, AUDIT_CRITICAL_HEADER, 'X-Audit-Critical');
      const entry = parseOr(ClientAuditEntrySchema, request.body, 'auditMessages.invalidEntry');
      const accepted = await auditTrail.recordClientEntries(callerOfRequest(request, 'auditCritical'), [entry], {
        batchId: null,
        sentAt: null,
      });
      return reply.code(202).header('cache-control', 'no-store').send({ accepted });
    },
  );

  app.get(AUDIT_SEARCH_PATH, { config: { session: 'optional' } }, async (request, reply) => {
    const query = parseOr(AuditApiSearchQuerySchema, request.query, 'auditMessages.invalidSearch');
    const filter = parseOr(
      AuditSearchFilterSchema,
      {
        from: query.startDate,
        to: query.endDate,
        person: query.userId,
        event: query.event,
        level: query.level,
        patientId: query.patientId,
        text: query.text,
        source: query.source,
      },
      'auditMessages.invalidSearch',
    );
    const authorization = request.headers.authorization;
    const meta = { ip: request.ip, userAgent: request.requestMeta.userAgent, url: AUDIT_SEARCH_PATH };
    let result;
    if (authorization) {
      const token = await apiTokens.authenticateBearer(authorization, meta);
      result = await auditTrail.searchWithToken(token, meta, filter, query.limit, query.cursor ?? null);
    } else if (request.session) {
      const caller: Caller = callerOfRequest(request, 'auditSearch');
      // The service parses the filter again (the same schema), so both doors check the same way.
      result = await auditTrail.search(caller, rawFilter(filter), { first: query.limit, after: query.cursor });
    } else {
      throw new AppError(ERROR_CODES.unauthenticated, 'auditMessages.tokenRequired');
    }
    return reply
      .header('cache-control', 'no-store')
      .send({ logs: result.entries.map(toApiEntry), count: result.entries.length, nextCursor: result.nextCursor });
  });
}

function requireHeader(request: FastifyRequest, name: string, label: string): void {
  const value = request.headers[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError(ERROR_CODES.badUserInput, 'auditMessages.headerMissing', { header: label });
  }
}

/** Parses with a shared schema; a bad body or query is a 400 that lists every problem. */
function parseOr<T extends z.ZodType>(schema: T, input: unknown, messageId: MessageId): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) =>
    i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message,
  );
  throw new AppError(
    ERROR_CODES.badUserInput,
    messageId,
    { problems: problems.join('; ') },
    {
      fields: fieldProblems(result.error.issues),
    },
  );
}

/** A parsed filter back in its input form, for the service that parses again. */
function rawFilter(filter: z.output<typeof AuditSearchFilterSchema>): Record<string, unknown> {
  return {
    ...filter,
    from: filter.from?.toISOString() ?? null,
    to: filter.to?.toISOString() ?? null,
  };
}

/** An entry in the specification's field names (clientIP, checksum), with our id, source and chain position. */
function toApiEntry(entry: AuditEntryView) {
  return {
    id: String(entry.id),
    timestamp: entry.timestamp.toISOString(),
    sessionId: entry.sessionId,
    event: entry.event,
    level: entry.level,
    userId: entry.userId,
    userRole: entry.userRole,
    clientIP: entry.clientIp,
    userAgent: entry.userAgent,
    url: entry.url,
    referrer: entry.referrer,
    details: entry.details,
    hipaaRequired: entry.hipaaRequired,
    retentionYears: entry.retentionYears,
    source: entry.source,
    checksum: entry.checksum,
    chainPosition: entry.chainPosition,
  };
}
