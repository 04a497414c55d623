import { ERROR_CODES } from '@telehealth/shared';
import type { ZodError } from 'zod';

import { isGraphQLRequestError } from './graphql.ts';

/** A message per form field (the first problem of each field), as forms show them inline. */
export type FieldErrors = Record<string, string>;

/** The first message of each top-level field of a failed parse with a shared schema. */
export function fieldErrorsFromZod(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/**
 * The server's `extensions.fieldErrors` (field → message) of a refused input (`BAD_USER_INPUT`), or null when
 * the error is of another kind. Nested paths ("address.city") are kept whole.
 */
export function fieldErrorsFromServer(error: unknown): FieldErrors | null {
  if (!isGraphQLRequestError(error) || error.code !== ERROR_CODES.badUserInput) return null;
  const errors: FieldErrors = {};
  for (const entry of error.errors) {
    const fieldErrors = entry.extensions?.fieldErrors;
    if (fieldErrors === null || typeof fieldErrors !== 'object') continue;
    for (const [field, message] of Object.entries(fieldErrors)) {
      if (typeof message === 'string' && message.length > 0 && !(field in errors)) errors[field] = message;
    }
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
