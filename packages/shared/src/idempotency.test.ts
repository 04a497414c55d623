import { describe, expect, it } from 'vitest';
import { formatIdempotencyKey, IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from './idempotency.ts';

describe('Idempotency-Key', () => {
  it('reads the draft sf-string and a bare key', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('8e03978e-40d5')).toBe('8e03978e-40d5');
    expect(parseIdempotencyKey('"a \\"b\\" \\\\c"')).toBe('a "b" \\c');
  });

  it('refuses empty, too long, control characters, non-ASCII and broken quoting', () => {
    for (const value of [
      '',
      '""',
      `"${'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1)}"`,
      '"a\tb"',
      '"a\nb"',
      'a b',
      '"clé"',
      '"open',
      '"a"b"',
      '"a\\b"',
    ]) {
      expect(parseIdempotencyKey(value), JSON.stringify(value)).toBeNull();
    }
    expect(parseIdempotencyKey(`"${'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH)}"`)).toHaveLength(IDEMPOTENCY_KEY_MAX_LENGTH);
  });

  it('formats a key that reads back as itself', () => {
    for (const key of ['0b6f-uuid', 'with "quotes" and \\ slash', ' spaced ']) {
      expect(parseIdempotencyKey(formatIdempotencyKey(key))).toBe(key);
    }
  });
});
