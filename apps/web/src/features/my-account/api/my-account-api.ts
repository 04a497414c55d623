import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordInput, UpdateMyAccountInput } from '@telehealth/shared';
import { z } from 'zod';

import { sessionQueryKeys } from '../../../lib/auth.ts';
import { graphqlRequest } from '../../../lib/graphql.ts';

export const myAccountQueryKeys = { account: ['my-account'] as const };

const MyAccountSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.string(),
  language: z.enum(['en', 'es']),
  languageChosen: z.boolean(),
  phone: z.string().nullable(),
  hasPatientRecord: z.boolean(),
  twoFactorEnabled: z.boolean(),
  otherSessions: z.number(),
});
export type MyAccount = z.infer<typeof MyAccountSchema>;
const FIELDS =
  'email firstName lastName role language languageChosen phone hasPatientRecord twoFactorEnabled otherSessions';

export function useMyAccount(enabled = true) {
  return useQuery({
    queryKey: myAccountQueryKeys.account,
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyAccount { myAccount { ${FIELDS} } }`,
          z.object({ myAccount: MyAccountSchema }),
          {},
          { signal },
        )
      ).myAccount,
  });
}

export function useUpdateMyAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UpdateMyAccountInput) =>
      (
        await graphqlRequest(
          `mutation UpdateMyAccount($input: UpdateMyAccountInput!) { updateMyAccount(input: $input) { ${FIELDS} } }`,
          z.object({ updateMyAccount: MyAccountSchema }),
          { input },
        )
      ).updateMyAccount,
    onSuccess: (account) => {
      queryClient.setQueryData(myAccountQueryKeys.account, account);
      // The header shows the name.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKeys.currentUser });
    },
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) =>
      (
        await graphqlRequest(
          'mutation ChangePassword($input: ChangePasswordInput!) { changePassword(input: $input) { sessionsEnded } }',
          z.object({ changePassword: z.object({ sessionsEnded: z.number() }) }),
          { input },
        )
      ).changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myAccountQueryKeys.account }),
  });
}

export function useSignOutEverywhereElse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await graphqlRequest(
          'mutation SignOutEverywhereElse { signOutEverywhereElse { sessionsEnded } }',
          z.object({ signOutEverywhereElse: z.object({ sessionsEnded: z.number() }) }),
        )
      ).signOutEverywhereElse,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myAccountQueryKeys.account }),
  });
}
