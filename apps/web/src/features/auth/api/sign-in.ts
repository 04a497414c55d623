import type { SignInInput } from '@telehealth/shared';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { completeSignIn, SIGN_IN_RESULT_FIELDS, SignInResultSchema, type SignInResultData } from '../../../lib/auth.ts';
import { graphqlRequest } from '../../../lib/graphql.ts';

const SIGN_IN_MUTATION = `mutation SignIn($email: String!, $password: String!) {
  signIn(email: $email, password: $password) { ${SIGN_IN_RESULT_FIELDS} }
}`;

export async function signIn(input: SignInInput): Promise<SignInResultData> {
  const data = await graphqlRequest(SIGN_IN_MUTATION, z.object({ signIn: SignInResultSchema }), input);
  return data.signIn;
}

/** Signs in with email and password; when the server says DONE the person is signed in in this tab. */
export function useSignIn() {
  return useMutation({
    mutationFn: signIn,
    onSuccess: (result) => {
      if (result.success && result.user && result.nextStep === 'DONE') completeSignIn(result.user);
    },
  });
}
