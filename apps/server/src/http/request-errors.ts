import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, MESSAGES } from '@telehealth/shared';
import { badRequest, isAppError, RequestError, type AppError } from '../errors.ts';

/** Fastify's own errors for a request it could not read, as our RequestErrors with a clear message. */
function fromFastifyError(error: FastifyError, bodyLimit: number): RequestError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new RequestError(413, ERROR_CODES.payloadTooLarge, 'bodyTooLarge', {
        limitKilobytes: Math.floor(bodyLimit / 1024),
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new RequestError(415, ERROR_CODES.unsupportedMediaType, 'unsupportedMediaType');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('emptyBody');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('notJson');
    default:
      // Any other refusal of the request itself (a bad Content-Length, an aborted upload, ...).
      return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? new RequestError(error.statusCode, ERROR_CODES.badRequest, 'unreadable')
        : null;
  }
}

/**
 * The RequestError an error thrown while reading or checking a request stands for, or null for a fault of the
 * server. Fastify's errors carry a 4xx `statusCode`; ours are RequestErrors already.
 */
export function requestErrorFrom(error: unknown, bodyLimit: number): RequestError | null {
  if (error instanceof RequestError) return error;
  if (!(error instanceof Error) || isAppError(error)) return null;
  const { code } = error as Partial<FastifyError>;
  if (typeof code === 'string' && code.startsWith('FST_ERR_'))
    return fromFastifyError(error as FastifyError, bodyLimit);
  // A library's own refusal of the request, as the http-errors convention marks it (`send`, which serves files,
  // refuses a path that leaves its folder with 403 and a NUL with 400): the request's fault, not the server's.
  const { statusCode, expose } = error as { statusCode?: unknown; expose?: unknown };
  if (expose === true && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return statusCode === 404 ? notFoundRequest() : new RequestError(statusCode, ERROR_CODES.badRequest, 'unreadable');
  }
  return null;
}

/** A 404 for an address where nothing is served (no route, no file), with a code like every other refusal. */
export const notFoundRequest = () => new RequestError(404, ERROR_CODES.notFound, 'notFound');

/** The HTTP status of a service's refusal, by its code (anything else is a 400). */
const HTTP_STATUS_OF: Partial<Record<string, number>> = {
  [ERROR_CODES.unauthenticated]: 401,
  [ERROR_CODES.forbidden]: 403,
  [ERROR_CODES.notFound]: 404,
  [ERROR_CODES.tooManyRequests]: 429,
  // An attachment over its limit.
  [ERROR_CODES.payloadTooLarge]: 413,
};

/** What a fault of the server is answered with: nothing about the fault itself. */
export const UNEXPECTED_EXTENSIONS = { code: ERROR_CODES.internal, messageId: 'messages.unexpected', params: {} };

/**
 * A refused request in the log, at info: its code, message id and the fields it named, never a value (the
 * fields' problems go to the caller only).
 */
export function logRefusal(log: FastifyBaseLogger, error: AppError): void {
  const fieldErrors = error.publicExtensions['fieldErrors'];
  const fields = fieldErrors !== null && typeof fieldErrors === 'object' ? Object.keys(fieldErrors) : undefined;
  log.info({ refused: { code: error.code, messageId: error.messageId, fields } }, 'request refused');
}

/** The JSON body of a refused request, in the shape of GraphQL errors so every client reads one shape. */
export function requestErrorBody(error: AppError) {
  return { errors: [{ message: error.message, extensions: error.extensions }] };
}

/**
 * Fastify's answer to a request it refuses before any route (a URL that is not valid percent-encoded UTF-8):
 * our 4xx body with a code, logged as a refusal, and never the URL it could not read.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refused = requestErrorFrom(error, 0) ?? badRequest('unreadable');
  logRefusal(request.log, refused);
  void reply.code(refused.statusCode).send(requestErrorBody(refused));
}

/**
 * The error handler of every route outside GraphQL (which has its own, see graphql/http.ts): a refused request
 * gets its 4xx and a clear message; anything else is a fault of the server, logged in full and answered
 * generically.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const refused = requestErrorFrom(error, app.initialConfig.bodyLimit ?? 1_048_576);
    if (refused) {
      logRefusal(request.log, refused);
      return reply.code(refused.statusCode).send(requestErrorBody(refused));
    }
    // A service's refusal on a plain HTTP route (recordings): its message, with the status its code stands for.
    if (error instanceof Error && isAppError(error)) {
      logRefusal(request.log, error);
      return reply.code(HTTP_STATUS_OF[error.code] ?? 400).send(requestErrorBody(error));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ errors: [{ message: MESSAGES.unexpected, extensions: UNEXPECTED_EXTENSIONS }] });
  });
}
