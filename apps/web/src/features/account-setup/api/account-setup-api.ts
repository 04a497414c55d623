import { INVITATION_STATUSES } from '@telehealth/shared';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

// These operations are public: they neither need nor extend a session.
const PUBLIC = { extendsSession: false } as const;

const InvitationStatusSchema = z.object({
  status: z.enum(INVITATION_STATUSES),
  email: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type InvitationState = z.infer<typeof InvitationStatusSchema>;

const ActionResultSchema = z.object({ success: z.boolean(), message: z.string().nullable() });

export function invitationStatusQueryOptions(token: string) {
  return queryOptions({
    // The token is a secret: it is kept in the query key only in memory, never sent anywhere but the body.
    queryKey: ['account-setup', 'invitation', token] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query InvitationStatus($token: String!) { invitationStatus(token: $token) { status email expiresAt } }',
        z.object({ invitationStatus: InvitationStatusSchema }),
        { token },
        { signal, ...PUBLIC },
      );
      return data.invitationStatus;
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export function useAcceptInvitation() {
  return useMutation({
    mutationFn: async (input: { token: string; password: string }) => {
      const data = await graphqlRequest(
        'mutation AcceptInvitation($token: String!, $password: String!) { acceptInvitation(token: $token, password: $password) { success message email } }',
        z.object({ acceptInvitation: z.object({ success: z.boolean(), message: z.string(), email: z.string() }) }),
        input,
        PUBLIC,
      );
      return data.acceptInvitation;
    },
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async (input: { email: string; locale: string | null }) => {
      const data = await graphqlRequest(
        'mutation RequestPasswordReset($email: String!, $locale: String) { requestPasswordReset(email: $email, locale: $locale) { success message } }',
        z.object({ requestPasswordReset: ActionResultSchema }),
        input,
        PUBLIC,
      );
      return data.requestPasswordReset;
    },
  });
}

export type ResetPasswordVariables =
  { token: string; newPassword: string } | { email: string; code: string; newPassword: string };

export function useResetPassword() {
  return useMutation({
    mutationFn: async (input: ResetPasswordVariables) => {
      const data = await graphqlRequest(
        'mutation ResetPassword($token: String, $email: String, $code: String, $newPassword: String!) { resetPassword(token: $token, email: $email, code: $code, newPassword: $newPassword) { success message email } }',
        z.object({ resetPassword: ActionResultSchema.extend({ email: z.string() }) }),
        input,
        PUBLIC,
      );
      return data.resetPassword;
    },
  });
}
