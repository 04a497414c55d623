import { describe, expect, it } from 'vitest';

import { GraphQLRequestError } from '../../../lib/graphql.ts';
import {
  passwordRules,
  retryAfterSeconds,
  tokenFailureReason,
  tokenFromHash,
  validateNewPassword,
} from './account-setup.ts';

describe('tokenFromHash', () => {
  it('reads the token from the fragment', () => {
    expect(tokenFromHash('#abc123')).toBe('abc123');
    expect(tokenFromHash('#')).toBeNull();
    expect(tokenFromHash('')).toBeNull();
  });
});

describe('passwordRules', () => {
  it('ticks off each rule of the policy', () => {
    expect(passwordRules('').every((rule) => !rule.met)).toBe(true);
    expect(passwordRules('Abcdefg1!').every((rule) => rule.met)).toBe(true);
    expect(
      passwordRules('abcdefgh')
        .filter((rule) => !rule.met)
        .map((rule) => rule.message),
    ).toEqual([
      { id: 'passwordMessages.uppercase', params: {} },
      { id: 'passwordMessages.number', params: {} },
      { id: 'passwordMessages.symbol', params: {} },
    ]);
  });
});

describe('validateNewPassword', () => {
  it('checks the policy first, then the confirmation', () => {
    expect(validateNewPassword('', '', 'differ')).toEqual({
      password: { id: 'passwordMessages.required', params: {} },
    });
    expect(validateNewPassword('short', 'short', 'differ')).toEqual({
      password: { id: 'passwordMessages.tooShort', params: {} },
    });
    expect(validateNewPassword('Abcdefg1!', 'Abcdefg1?', 'differ')).toEqual({ confirm: 'differ' });
    expect(validateNewPassword('Abcdefg1!', 'Abcdefg1!', 'differ')).toEqual({});
  });
});

describe('server refusals', () => {
  it('reads the reason of a refused token and the wait of a rate limit', () => {
    const expired = new GraphQLRequestError('graphql', [
      { message: 'expired', extensions: { code: 'BAD_USER_INPUT', reason: 'expired' } },
    ]);
    expect(tokenFailureReason(expired)).toBe('expired');
    expect(tokenFailureReason(new Error('x'))).toBeNull();
    const limited = new GraphQLRequestError('graphql', [
      { message: 'Too many', extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 120 } },
    ]);
    expect(retryAfterSeconds(limited)).toBe(120);
    expect(retryAfterSeconds(expired)).toBeNull();
  });
});
