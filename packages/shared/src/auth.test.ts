import { describe, expect, it } from 'vitest';
import { EmailSchema, PASSWORD_MESSAGES, PasswordSchema, SignInInputSchema } from './auth.ts';
import { accountLockedMessage } from './messages.ts';

const messagesFor = (password: string) => {
  const result = PasswordSchema.safeParse(password);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('password policy', () => {
  it('accepts a password with 8+ characters, lower, upper, number and symbol', () => {
    expect(messagesFor('DemoPass-2026!')).toEqual([]);
    expect(messagesFor('aB3$efgh')).toEqual([]);
  });

  it('names each missing class', () => {
    expect(messagesFor('')).toContain(PASSWORD_MESSAGES.required);
    expect(messagesFor('aB3$')).toEqual([PASSWORD_MESSAGES.tooShort]);
    expect(messagesFor('ABCDEFG1!')).toEqual([PASSWORD_MESSAGES.lowercase]);
    expect(messagesFor('abcdefg1!')).toEqual([PASSWORD_MESSAGES.uppercase]);
    expect(messagesFor('Abcdefgh!')).toEqual([PASSWORD_MESSAGES.number]);
    expect(messagesFor('Abcdefgh1')).toEqual([PASSWORD_MESSAGES.symbol]);
    expect(messagesFor('abc')).toEqual([
      PASSWORD_MESSAGES.tooShort,
      PASSWORD_MESSAGES.uppercase,
      PASSWORD_MESSAGES.number,
      PASSWORD_MESSAGES.symbol,
    ]);
  });

  it('uses the words of the policy', () => {
    expect(PASSWORD_MESSAGES.tooShort).toBe('Password must be at least 8 characters long');
  });
});

describe('email', () => {
  it('trims and lower-cases', () => {
    expect(EmailSchema.parse('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('uses the specification messages', () => {
    const first = (value: string) => EmailSchema.safeParse(value).error?.issues[0]?.message;
    expect(first('')).toBe('Email is required');
    expect(first('not-an-email')).toBe('Please enter a valid email address');
    expect(first(`${'a'.repeat(250)}@x.com`)).toBe('Email address is too long');
  });
});

describe('sign-in input', () => {
  it('needs an email and a password but does not apply the policy', () => {
    expect(SignInInputSchema.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(SignInInputSchema.safeParse({ email: 'a@b.co', password: '' }).success).toBe(false);
  });
});

describe('lockout message', () => {
  it('says when to try again, rounded up to whole minutes', () => {
    expect(accountLockedMessage(299_000)).toMatch(/try again in 5 minutes\.$/);
    expect(accountLockedMessage(10_000)).toMatch(/try again in 1 minute\.$/);
  });
});
