import type { z } from 'zod';
import {
  ERROR_CODES,
  fieldProblems,
  type FieldProblem,
  messageText,
  type MessageId,
  type MessageParams,
  type REQUEST_MESSAGES,
} from '@telehealth/shared';

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * An error whose message is safe to show to the caller. It names a message of the shared catalogue and its
 * parameters; the English text (the specification's words) is the message. Sent as
 * `extensions: { code, messageId, params, ...publicExtensions }`, so the browser says it in its own language
 * by the id (decision 018).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly messageId: MessageId;
  readonly params: MessageParams;
  /** Sent beside the code, id and params in `extensions` (for example the problems of each field). */
  readonly publicExtensions: Record<string, unknown>;
  constructor(
    code: ErrorCode,
    messageId: MessageId,
    params: MessageParams = {},
    extensions: Record<string, unknown> = {},
  ) {
    super(messageText(messageId, params));
    this.name = 'AppError';
    this.code = code;
    this.messageId = messageId;
    this.params = params;
    this.publicExtensions = extensions;
  }

  /** What the response carries in `extensions`. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, messageId: this.messageId, params: this.params, ...this.publicExtensions };
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
    super(code, `requestMessages.${messageKey}`, params);
    this.name = 'RequestError';
    this.statusCode = statusCode;
  }
}

/** A 400 for a body that is not a GraphQL request. */
export const badRequest = (messageKey: keyof typeof REQUEST_MESSAGES, params: MessageParams = {}) =>
  new RequestError(400, ERROR_CODES.badRequest, messageKey, params);

export const unauthenticated = () => new AppError(ERROR_CODES.unauthenticated, 'messages.authRequired');
export const forbidden = (messageId: MessageId = 'messages.defaultDenied') =>
  new AppError(ERROR_CODES.forbidden, messageId);
export const badUserInput = (messageId: MessageId, extensions: Record<string, unknown> = {}) =>
  new AppError(ERROR_CODES.badUserInput, messageId, {}, extensions);
export const notFound = (messageId: MessageId) => new AppError(ERROR_CODES.notFound, messageId);

/**
 * One field's problem as a refusal carries it: the field's path, the catalogue message's id and parameters, and
 * its English text (the specification's words, for `fieldErrors` and the error's message).
 */
export interface FieldProblemWithText extends FieldProblem {
  message: string;
}

/** A field's problem named by a catalogue message. */
export function fieldProblem(field: string, messageId: MessageId, params: MessageParams = {}): FieldProblemWithText {
  return { field, messageId, params, message: messageText(messageId, params) };
}

/**
 * What a refusal about fields carries in `extensions`: `fields`, every problem as `{ field, messageId, params }`
 * (the browser translates these, decision 052), and `fieldErrors`, the English text of each field's first problem
 * (kept for API clients).
 */
export function fieldExtensions(problems: readonly FieldProblemWithText[]): {
  fieldErrors: Record<string, string>;
  fields: FieldProblem[];
} {
  const fieldErrors: Record<string, string> = {};
  for (const problem of problems) fieldErrors[problem.field] ??= problem.message;
  return { fieldErrors, fields: problems.map(({ field, messageId, params }) => ({ field, messageId, params })) };
}

/** `Validation failed: ...` with every problem, each field's problems in `fields` and its first in `fieldErrors`. */
export const validationFailed = (problems: readonly FieldProblemWithText[]) =>
  new AppError(
    ERROR_CODES.badUserInput,
    'messages.validationFailed',
    { problems: problems.map((problem) => problem.message).join(', ') },
    fieldExtensions(problems),
  );

/** The problems of a failed parse with a shared schema, each with the message id its rule names (field-messages.ts). */
export function issueProblems(issues: readonly z.core.$ZodIssue[]): FieldProblemWithText[] {
  const coded = fieldProblems(issues);
  // The English is the issue's own text, word for word (the same as the catalogue's for every coded rule).
  return coded.map((problem, index) => ({ ...problem, message: issues[index]?.message ?? '' }));
}

/** Parses with a shared schema; on failure, every problem in one `Validation failed: ...` error. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(issueProblems(result.error.issues));
}

/** A refusal about one field of a form, shaped like a validation failure (`fields` and `fieldErrors`). */
export function fieldError(field: string, messageId: MessageId, params: MessageParams = {}): AppError {
  return new AppError(
    ERROR_CODES.badUserInput,
    messageId,
    params,
    fieldExtensions([fieldProblem(field, messageId, params)]),
  );
}
