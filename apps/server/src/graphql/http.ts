import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { safeParse as parseContentType } from 'fast-content-type-parse';
import { ERROR_CODES } from '@telehealth/shared';
import { badRequest, RequestError } from '../errors.ts';
import { logRefusal, requestErrorBody } from '../http/request-errors.ts';

/**
 * GraphQL over HTTP, checked before Mercurius sees the request: POST, a JSON body, one operation with its query
 * as text. Each refusal says what is wrong, with its 4xx; none reaches the resolvers or the database.
 */

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Queries over GET would let a cross-site link run operations with the user's cookie, and a form can post
 * text/plain across sites without a preflight: POST with a body of exactly `application/json` only (a charset
 * parameter may say UTF-8, nothing else).
 */
export async function checkGraphQLMethodAndType(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.method !== 'POST') {
    const refused = new RequestError(405, ERROR_CODES.methodNotAllowed, 'methodNotAllowed');
    logRefusal(request.log, refused);
    await reply.code(405).header('allow', 'POST').send(requestErrorBody(refused));
    return;
  }
  const { type, parameters } = parseContentType(request.headers['content-type'] ?? '');
  const charset = parameters['charset']?.toLowerCase();
  if (type !== 'application/json' || (charset !== undefined && charset !== 'utf-8')) {
    const refused = new RequestError(415, ERROR_CODES.unsupportedMediaType, 'unsupportedMediaType');
    logRefusal(request.log, refused);
    await reply.code(415).send(requestErrorBody(refused));
  }
}

/**
 * The body must be one GraphQL request: an object with `query` as text, `variables` and `extensions` objects
 * when given, `operationName` text when given. Checked here, before Mercurius's own schema, which would coerce
 * (a number to text, null to "") and answer a batch or a bare value with a 500.
 */
export function checkGraphQLBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const body: unknown = request.body;
  const problem = graphqlBodyProblem(body);
  if (problem) {
    done(problem);
    return;
  }
  // With variables present, Mercurius checks the operation name and the variables before it runs anything
  // (also for a query it has compiled already), so an unknown operation is always a 400.
  const fields = body as Record<string, unknown>;
  fields['variables'] ??= {};
  done();
}

function graphqlBodyProblem(body: unknown): RequestError | null {
  if (Array.isArray(body)) return badRequest('batchNotSupported');
  if (!isJsonObject(body)) return badRequest('notAnObject');
  const { query, variables, extensions, operationName } = body;
  if (query === undefined || query === null || query === '') return badRequest('queryMissing');
  if (typeof query !== 'string') return badRequest('queryNotText');
  if (variables !== undefined && variables !== null && !isJsonObject(variables)) {
    return badRequest('variablesNotObject');
  }
  if (extensions !== undefined && !isJsonObject(extensions)) return badRequest('extensionsNotObject');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return badRequest('operationNameNotText');
  }
  return null;
}
