import { ERROR_CODES } from '@telehealth/shared';
import { ZodError } from 'zod';

import { isGraphQLRequestError } from './graphql.ts';
// The page's instance (lib/i18n-core.ts), so the public site's sign-in can use this too.
import i18n from 'i18next';

/**
 * The text a person sees for a failed call, after the specification's error catalogue: the server's own
 * message where it is meant for people, generic wording where it is not.
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
    return joined || i18n.t('shared:messages.unexpected');
  }
  if (error instanceof ZodError) {
    // The server answered with a shape this browser does not understand (e.g. an older or newer server).
    return i18n.t('errors:unexpectedResponse');
  }
  return i18n.t('shared:messages.unexpected');
}
