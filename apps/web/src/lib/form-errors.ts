import { ERROR_CODES, issueMessage, type CodedMessage } from '@telehealth/shared';
import type { ZodError } from 'zod';

import { isGraphQLRequestError } from './graphql.ts';

/**
 * A message per form field (the first problem of each field), as forms show them inline: a message id and its
 * parameters, which lib/error-text.ts says in the page's language (decision 052).
 */
export type FieldErrors = Record<string, CodedMessage>;

/** The first message of each top-level field of a failed parse with a shared schema. */
export function fieldErrorsFromZod(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field] = issueMessage(issue);
  }
  return errors;
}

/**
 * The first message of each field of a failed parse, keyed by the field's whole path ("dose.doseAmount"), as the
 * server's `extensions.fields` are: for a form with nested fields.
 */
export function fieldErrorsByPath(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.');
    if (!(path in errors)) errors[path] = issueMessage(issue);
  }
  return errors;
}

function isParams(value: unknown): value is CodedMessage['params'] {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
  );
}

/** The `{ field, messageId, params }` entries of an error's `extensions.fields`, those well formed. */
export function fieldProblemsOf(extensions: Record<string, unknown> | undefined): {
  field: string;
  message: CodedMessage;
}[] {
  const fields = extensions?.['fields'];
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((entry: unknown) => {
    if (entry === null || typeof entry !== 'object') return [];
    const { field, messageId, params } = entry as Record<string, unknown>;
    if (typeof field !== 'string' || typeof messageId !== 'string' || !isParams(params)) return [];
    return [{ field, message: { id: messageId, params } }];
  });
}

/**
 * The server's `extensions.fields` of a refused input (`BAD_USER_INPUT`), the first problem of each field, or
 * null when the error is of another kind. Nested paths ("address.city") are kept whole.
 */
export function fieldErrorsFromServer(error: unknown): FieldErrors | null {
  if (!isGraphQLRequestError(error) || error.code !== ERROR_CODES.badUserInput) return null;
  const errors: FieldErrors = {};
  for (const entry of error.errors) {
    for (const { field, message } of fieldProblemsOf(entry.extensions)) errors[field] ??= message;
  }
  return errors;
}

/** True when the server answered that the record does not exist or is not the caller's (`NOT_FOUND`). */
export function isNotFoundError(error: unknown): boolean {
  return isGraphQLRequestError(error) && error.code === ERROR_CODES.notFound;
}

/**
 * True for a refusal the server explains in words meant for people (validation, permission, not found):
 * such a message is shown as it is; anything else gets the screen's own fallback text.
 */
export function hasPublicMessage(error: unknown): boolean {
  if (!isGraphQLRequestError(error) || error.kind !== 'graphql') return false;
  return (
    error.code === ERROR_CODES.badUserInput ||
    error.code === ERROR_CODES.forbidden ||
    error.code === ERROR_CODES.notFound
  );
}
