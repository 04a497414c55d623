import { MESSAGES } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { describeError } from './errors.ts';
import { GraphQLRequestError } from './graphql.ts';
// The page's texts (errors.ts uses the page's i18next instance, set up by lib/i18n.ts in the app).
import './i18n.ts';

const graphqlError = (message: string, code?: string) =>
  new GraphQLRequestError('graphql', [{ message, ...(code ? { extensions: { code } } : {}) }]);

describe('describeError', () => {
  it("shows the server's message for errors meant for people", () => {
    expect(describeError(graphqlError('Patient not found', 'NOT_FOUND'))).toBe('Patient not found');
    expect(
      describeError(
        new GraphQLRequestError('graphql', [
          { message: 'First name is required' },
          { message: 'Invalid email format' },
        ]),
      ),
    ).toBe('First name is required, Invalid email format');
  });

  it('follows the error catalogue for authentication and validation failures', () => {
    expect(describeError(graphqlError('whatever', 'UNAUTHENTICATED'))).toBe(MESSAGES.authRequired);
    expect(describeError(graphqlError('UnauthorizedException: token expired'))).toBe(
      'Authentication expired. Please sign in again.',
    );
    expect(describeError(graphqlError('ValidationException: bad'))).toBe(
      'Invalid data provided. Please check your inputs.',
    );
  });

  it('hides internal errors and unknown failures behind the generic message', () => {
    expect(describeError(graphqlError('relation "x" does not exist', 'INTERNAL_SERVER_ERROR'))).toBe(
      MESSAGES.unexpected,
    );
    expect(describeError(new Error('boom'))).toBe(MESSAGES.unexpected);
    expect(describeError(new GraphQLRequestError('http', [{ message: 'API request failed: 502' }], 502))).toBe(
      MESSAGES.unexpected,
    );
  });

  it('says when the server could not be reached', () => {
    expect(describeError(new GraphQLRequestError('network', []))).toMatch(/could not reach the server/i);
  });
});
