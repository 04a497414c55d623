import type { z } from 'zod';
import {
  ERROR_CODES,
  formatMessage,
  MESSAGES,
  REQUEST_MESSAGES,
  validationFailedMessage,
  type MessageParams,
} from '@telehealth/shared';

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An error whose message is safe to show to the caller, with the code sent in `extensions.code`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** Sent beside the code in `extensions` (for example the problems of each field). */
  readonly publicExtensions: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.publicExtensions = extensions;
  }
}

/** Recognises an AppError by shape as well, since GraphQL libraries may re-wrap what a resolver threw. */
export function isAppError(error: Error): error is AppError {
  return (
    error instanceof AppError || (error.name === 'AppError' && typeof (error as { code?: unknown }).code === 'string')
  );
}

/**
 * A request refused before GraphQL runs (not JSON, no query, too large, ...), answered with its HTTP status. The
 * status is named `statusCode` so that Fastify treats it like its own errors.
 */
export class RequestError extends AppError {
  readonly statusCode: number;
  constructor(
    statusCode: number,
    code: ErrorCode,
    messageKey: keyof typeof REQUEST_MESSAGES,
    params: MessageParams = {},
  ) {
    super(code, formatMessage(REQUEST_MESSAGES[messageKey], params), { messageId: `request.${messageKey}`, params });
    this.name = 'RequestError';
    this.statusCode = statusCode;
  }
}

/** A 400 for a body that is not a GraphQL request. */
export const badRequest = (messageKey: keyof typeof REQUEST_MESSAGES, params: MessageParams = {}) =>
  new RequestError(400, ERROR_CODES.badRequest, messageKey, params);

export const unauthenticated = () => new AppError(ERROR_CODES.unauthenticated, MESSAGES.authRequired);
export const forbidden = (message: string = MESSAGES.defaultDenied) => new AppError(ERROR_CODES.forbidden, message);
export const badUserInput = (message: string, extensions: Record<string, unknown> = {}) =>
  new AppError(ERROR_CODES.badUserInput, message, extensions);
export const notFound = (message: string) => new AppError(ERROR_CODES.notFound, message);

/** Parses with a shared schema; on failure, every problem in one `Validation failed: ...` error. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    fieldErrors[field] ??= issue.message;
  }
  throw badUserInput(validationFailedMessage(result.error.issues.map((i) => i.message)), { fieldErrors });
}
