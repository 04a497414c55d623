import { ERROR_CODES, issueMessage, PASSWORD_MIN_LENGTH, PasswordSchema, type CodedMessage } from '@telehealth/shared';

import { isGraphQLRequestError } from '../../../lib/graphql.ts';

/** The token of an e-mailed link: the URL fragment (`/invite#TOKEN`), so it never reaches a server log. */
export function tokenFromHash(hash: string): string | null {
  const token = decodeURIComponent(hash.replace(/^#/, '')).trim();
  return token === '' ? null : token;
}

export interface PasswordRule {
  message: CodedMessage;
  met: boolean;
}

const rule = (key: 'tooShort' | 'lowercase' | 'uppercase' | 'number' | 'symbol', met: boolean): PasswordRule => ({
  message: { id: `passwordMessages.${key}`, params: {} },
  met,
});

/** Each rule of the password policy (the messages of @telehealth/shared) and whether `password` meets it. */
export function passwordRules(password: string): PasswordRule[] {
  return [
    rule('tooShort', password.length >= PASSWORD_MIN_LENGTH),
    rule('lowercase', /[a-z]/.test(password)),
    rule('uppercase', /[A-Z]/.test(password)),
    rule('number', /[0-9]/.test(password)),
    rule('symbol', /[^A-Za-z0-9]/.test(password)),
  ];
}

/** A refused token: `extensions.reason` of a BAD_USER_INPUT answer (invalid, expired or used). */
export function tokenFailureReason(error: unknown): 'invalid' | 'expired' | 'used' | null {
  if (!isGraphQLRequestError(error)) return null;
  for (const entry of error.errors) {
    const reason = entry.extensions?.['reason'];
    if (reason === 'invalid' || reason === 'expired' || reason === 'used') return reason;
  }
  return null;
}

/** Seconds to wait, when the server says TOO_MANY_REQUESTS; null otherwise. */
export function retryAfterSeconds(error: unknown): number | null {
  if (!isGraphQLRequestError(error)) return null;
  const entry = error.errors.find((candidate) => candidate.extensions?.code === ERROR_CODES.tooManyRequests);
  if (!entry) return null;
  const seconds = entry.extensions?.['retryAfterSeconds'];
  return typeof seconds === 'number' && seconds > 0 ? seconds : 60;
}

/** A new password's problems: the policy's (by id), and the confirmation's (already worded). */
export interface NewPasswordErrors {
  password?: CodedMessage;
  confirm?: string;
}

/** Checks a new password against the policy and its confirmation; the messages to show at each field. */
export function validateNewPassword(password: string, confirm: string, passwordsDiffer: string): NewPasswordErrors {
  const parsed = PasswordSchema.safeParse(password);
  const errors: NewPasswordErrors = {};
  const issue = parsed.error?.issues[0];
  if (!parsed.success) errors.password = issue ? issueMessage(issue) : { id: 'passwordMessages.required', params: {} };
  else if (confirm !== password) errors.confirm = passwordsDiffer;
  return errors;
}
