import { CurrentUserSchema, SIGN_IN_STEPS, type CurrentUser, type SignInInput } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from './graphql.ts';

// The sign-in calls, without a query cache: the public site's login page (no TanStack Query) and the
// single-page app (lib/auth.ts) both use them.

export const USER_FIELDS = 'userId email name role source';

const SignInResultSchema = z.object({
  success: z.boolean(),
  user: CurrentUserSchema.nullable(),
  error: z.string().nullable(),
  /** The same message by catalogue id (lib/errors.ts says it in the page's language). */
  errorMessage: z
    .object({ id: z.string(), params: z.array(z.object({ name: z.string(), value: z.string() })) })
    .nullish(),
  nextStep: z.enum(SIGN_IN_STEPS).nullable(),
});
export type SignInResultData = z.infer<typeof SignInResultSchema>;

const SIGN_IN_RESULT_FIELDS = `success user { ${USER_FIELDS} } error errorMessage { id params { name value } } nextStep`;

const SIGN_IN_MUTATION = `mutation SignIn($email: String!, $password: String!) {
  signIn(email: $email, password: $password) { ${SIGN_IN_RESULT_FIELDS} }
}`;
const DEMO_SIGN_IN_MUTATION = `mutation DemoSignIn($email: String!) { demoSignIn(email: $email) { ${SIGN_IN_RESULT_FIELDS} } }`;

export async function signIn(input: SignInInput): Promise<SignInResultData> {
  const data = await graphqlRequest(SIGN_IN_MUTATION, z.object({ signIn: SignInResultSchema }), input);
  return data.signIn;
}

const CONFIRM_SIGN_IN_MUTATION = `mutation ConfirmSignIn($challengeResponse: String!) {
  confirmSignIn(challengeResponse: $challengeResponse) { ${SIGN_IN_RESULT_FIELDS} }
}`;

/** The second step of a sign-in: a code from the authenticator app, or a recovery code. */
export async function confirmSignIn(challengeResponse: string): Promise<SignInResultData> {
  const data = await graphqlRequest(CONFIRM_SIGN_IN_MUTATION, z.object({ confirmSignIn: SignInResultSchema }), {
    challengeResponse,
  });
  return data.confirmSignIn;
}

/** The steps after the password that the sign-in page carries out itself. */
export type SecondStep = 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' | 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP';

export function secondStepOf(result: SignInResultData): SecondStep | null {
  return result.nextStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' || result.nextStep === 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP'
    ? result.nextStep
    : null;
}

/** Signs in as a seeded demo account (the server refuses outside demo mode). */
export async function demoSignIn(email: string): Promise<SignInResultData> {
  const data = await graphqlRequest(DEMO_SIGN_IN_MUTATION, z.object({ demoSignIn: SignInResultSchema }), { email });
  return data.demoSignIn;
}

/** Whether the server signed the person in, with nothing left to do. */
export function isSignedInResult(result: SignInResultData): result is SignInResultData & { user: CurrentUser } {
  return result.success && result.user !== null && result.nextStep === 'DONE';
}
