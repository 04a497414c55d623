// What signing in needs beyond the page itself: the shared schema, the calls, and the wording of what the server
// and the schema say. The sign-in page paints without it and loads it right after (hooks/use-sign-in-logic.ts):
// the schema library is most of the page's code.
import {
  issueMessage,
  SignInInputSchema,
  TotpCodeSchema,
  TWO_FACTOR_MESSAGES,
  type CodedMessage,
  type SignInInput,
} from '@telehealth/shared';

export { describeError, describeSignInError } from '../../../lib/errors.ts';
export { confirmSignIn, demoSignIn, isSignedInResult, secondStepOf, signIn } from '../../../lib/sign-in.ts';
export { coded, errorText } from '../../../lib/error-text.ts';
export { TWO_FACTOR_MESSAGES };

export type SignInFieldErrors = Partial<Record<keyof SignInInput, CodedMessage>>;

/** Checks the form with the shared schema; the first problem of each field is shown at that field. */
export function validateSignIn(values: {
  email: string;
  password: string;
}): { ok: true; data: SignInInput } | { ok: false; errors: SignInFieldErrors } {
  const parsed = SignInInputSchema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: SignInFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issueMessage(issue);
  }
  return { ok: false, errors };
}

/**
 * Checks a code typed at the second step: `totp` wants the app's 6 digits (spaces ignored), a recovery code only
 * needs to be there (the server normalises it). Answers the value to send, or the message to show.
 */
export function validateSecondFactor(
  value: string,
  kind: 'totp' | 'recovery',
): { ok: true; value: string } | { ok: false; error: CodedMessage } {
  if (kind === 'totp') {
    const parsed = TotpCodeSchema.safeParse(value);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, error: { id: 'twoFactorMessages.codeFormat', params: {} } };
  }
  const trimmed = value.trim();
  return trimmed
    ? { ok: true, value: trimmed }
    : { ok: false, error: { id: 'twoFactorMessages.codeRequired', params: {} } };
}
