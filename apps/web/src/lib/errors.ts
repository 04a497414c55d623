import { ERROR_CODES } from '@telehealth/shared';
import { ZodError } from 'zod';

import { errorText } from './error-text.ts';
import { fieldProblemsOf } from './form-errors.ts';
import { isGraphQLRequestError, type GraphQLErrorEntry } from './graphql.ts';
// The page's instance (lib/i18n-core.ts), so the public site's sign-in can use this too.
import i18n from 'i18next';

function isParams(value: unknown): value is Record<string, string | number> {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
  );
}

/**
 * One error of the server in the page's language, found by its message id (`extensions.messageId`, a key of the
 * `shared` namespace) and filled with `extensions.params`; the server's own English when the browser does not
 * know the id (a newer server). Never found by matching the English text.
 */
export function translateServerError(entry: GraphQLErrorEntry): string {
  const { messageId, params } = entry.extensions ?? {};
  if (typeof messageId !== 'string' || messageId.length === 0) return entry.message;
  const values: Record<string, string | number> = isParams(params) ? { ...params } : {};
  const key = `shared:${messageId}`;
  if (!i18n.exists(key, values)) return entry.message;
  // A refused input lists its problems: each field's by id (`extensions.fields`), said as the form's own checks.
  const problems = fieldProblemsOf(entry.extensions);
  if (typeof values['problems'] === 'string' && problems.length > 0) {
    values['problems'] = problems.map(({ field, message }) => errorText(message, { field })).join(', ');
  }
  // The key comes from the server at run time, so it is not one of the typed keys.
  return (i18n.t as (key: string, options: Record<string, unknown>) => string)(key, values);
}

/**
 * Why the server did not sign the person in (a sign-in result's `error`), in the page's language: by the
 * result's `errorMessage` id (the server's own English only from a server that sends none).
 */
export function describeSignInError(result: {
  error: string | null;
  errorMessage?: { id: string; params: readonly { name: string; value: string }[] } | null | undefined;
}): string | null {
  if (result.error === null) return null;
  if (!result.errorMessage) return result.error;
  // Parameters travel as text in GraphQL; a number is a number again (plurals are chosen by `count`).
  const params = Object.fromEntries(
    result.errorMessage.params.map(({ name, value }) => [name, /^\d+$/.test(value) ? Number(value) : value]),
  );
  return translateServerError({ message: result.error, extensions: { messageId: result.errorMessage.id, params } });
}

/**
 * The text a person sees for a failed call, after the specification's error catalogue: the server's own
 * message (by its id) where it is meant for people, generic wording where it is not.
 */
export function describeError(error: unknown): string {
  if (isGraphQLRequestError(error)) {
    if (error.kind === 'network') return i18n.t('errors:network');
    if (error.kind === 'http') return i18n.t('shared:messages.unexpected');
    if (error.code === ERROR_CODES.unauthenticated) return i18n.t('shared:messages.authRequired');
    if (error.code === ERROR_CODES.internal) return i18n.t('shared:messages.unexpected');
    const messages = error.errors.map((entry) => entry.message).filter((message) => message.length > 0);
    const joined = messages.join(', ');
    if (joined.includes('UnauthorizedException')) return i18n.t('errors:authenticationExpired');
    if (joined.includes('ValidationException')) return i18n.t('errors:invalidData');
    const translated = error.errors.filter((entry) => entry.message.length > 0).map(translateServerError);
    return translated.join(', ') || i18n.t('shared:messages.unexpected');
  }
  if (error instanceof ZodError) {
    // The server answered with a shape this browser does not understand (e.g. an older or newer server).
    return i18n.t('errors:unexpectedResponse');
  }
  return i18n.t('shared:messages.unexpected');
}
