// What signing in needs beyond the page itself: the shared schema, the calls, and the wording of what the server
// and the schema say. The sign-in page paints without it and loads it right after (hooks/use-sign-in-logic.ts):
// the schema library is most of the page's code.
import { SignInInputSchema, type SignInInput } from '@telehealth/shared';

export { describeError } from '../../../lib/errors.ts';
export { demoSignIn, isSignedInResult, signIn } from '../../../lib/sign-in.ts';
export { translateMessage } from '../../../lib/translate-message.ts';

export type SignInFieldErrors = Partial<Record<keyof SignInInput, string>>;

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
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
