import { PAGE_SIZE, type InviteUserInput, type Role, type UserStatus } from '@telehealth/shared';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const ADMIN_USER_FIELDS =
  'id firstName lastName email role isActive twoFactorEnabled locked invitationPending lastSignInAt createdAt patientId';

export const AdminUserSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.string().nullable(),
  isActive: z.boolean(),
  twoFactorEnabled: z.boolean(),
  locked: z.boolean(),
  invitationPending: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  patientId: z.string().nullable(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

const PageSchema = z.object({ items: z.array(AdminUserSchema), nextToken: z.string().nullable() });

/** The list's filters as the screen holds them; empty means "any". */
export interface UserFilters {
  search: string;
  role: Role | '';
  status: UserStatus | '';
  locked: '' | 'yes' | 'no';
  twoFactor: '' | 'on' | 'off';
}

export const adminUsersQueryKeys = {
  all: ['admin-users'] as const,
  list: (filters: UserFilters) => ['admin-users', 'list', filters] as const,
  invitablePatients: (search: string) => ['admin-users', 'invitable-patients', search] as const,
};

const yesNo = (value: string, yes: string): boolean | null => (value === '' ? null : value === yes);

export function adminUsersQueryOptions(filters: UserFilters) {
  return infiniteQueryOptions({
    queryKey: adminUsersQueryKeys.list(filters),
    queryFn: async ({ pageParam, signal }) => {
      const data = await graphqlRequest(
        `query AdminUsers($search: String, $role: String, $status: String, $locked: Boolean, $twoFactor: Boolean, $limit: Int, $nextToken: String) {
          adminUsers(search: $search, role: $role, status: $status, locked: $locked, twoFactor: $twoFactor, limit: $limit, nextToken: $nextToken) {
            items { ${ADMIN_USER_FIELDS} } nextToken
          }
        }`,
        z.object({ adminUsers: PageSchema }),
        {
          search: filters.search.trim() || null,
          role: filters.role || null,
          status: filters.status || null,
          locked: yesNo(filters.locked, 'yes'),
          twoFactor: yesNo(filters.twoFactor, 'on'),
          limit: PAGE_SIZE,
          nextToken: pageParam,
        },
        { signal },
      );
      return data.adminUsers;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextToken,
  });
}

const InvitablePatientSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  dateOfBirth: z.string(),
});
export type InvitablePatient = z.infer<typeof InvitablePatientSchema>;

export function invitablePatientsQueryOptions(search: string) {
  return queryOptions({
    queryKey: adminUsersQueryKeys.invitablePatients(search),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query InvitablePatients($search: String) { invitablePatients(search: $search) { id firstName lastName email dateOfBirth } }',
        z.object({ invitablePatients: z.array(InvitablePatientSchema) }),
        { search },
        { signal },
      );
      return data.invitablePatients;
    },
    // Each search is audited (PATIENT_VIEW): do not repeat it behind the administrator's back.
    staleTime: Infinity,
  });
}

/** The actions on one account; each answers the account as the list shows it. */
export type UserAction = 'deactivate' | 'reactivate' | 'sendPasswordReset' | 'resetTwoFactor' | 'unlock';

/** One document per action, each answering the account as `user` (written out whole so tests can read them). */
const USER_ACTION_DOCUMENTS = {
  deactivate: `mutation ($accountId: ID!) { user: deactivateUser(accountId: $accountId) { ${ADMIN_USER_FIELDS} } }`,
  reactivate: `mutation ($accountId: ID!) { user: reactivateUser(accountId: $accountId) { ${ADMIN_USER_FIELDS} } }`,
  sendPasswordReset: `mutation ($accountId: ID!) { user: sendUserPasswordReset(accountId: $accountId) { ${ADMIN_USER_FIELDS} } }`,
  resetTwoFactor: `mutation ($accountId: ID!) { user: resetUserTwoFactor(accountId: $accountId) { ${ADMIN_USER_FIELDS} } }`,
  unlock: `mutation ($accountId: ID!) { user: unlockUser(accountId: $accountId) { ${ADMIN_USER_FIELDS} } }`,
} as const;

const UserActionAnswerSchema = z.object({ user: AdminUserSchema });

function requestUserAction(action: UserAction, accountId: string) {
  const variables = { accountId };
  switch (action) {
    case 'deactivate':
      return graphqlRequest(USER_ACTION_DOCUMENTS.deactivate, UserActionAnswerSchema, variables);
    case 'reactivate':
      return graphqlRequest(USER_ACTION_DOCUMENTS.reactivate, UserActionAnswerSchema, variables);
    case 'sendPasswordReset':
      return graphqlRequest(USER_ACTION_DOCUMENTS.sendPasswordReset, UserActionAnswerSchema, variables);
    case 'resetTwoFactor':
      return graphqlRequest(USER_ACTION_DOCUMENTS.resetTwoFactor, UserActionAnswerSchema, variables);
    case 'unlock':
      return graphqlRequest(USER_ACTION_DOCUMENTS.unlock, UserActionAnswerSchema, variables);
  }
}

function useAfterChange() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin-users', 'list'] });
}

export function useUserAction() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: async ({ action, accountId }: { action: UserAction; accountId: string }) =>
      (await requestUserAction(action, accountId)).user,
    onSuccess: afterChange,
  });
}

export function useChangeUserRole() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: async (input: { accountId: string; role: 'admin' | 'provider'; specialty: string | null }) => {
      const data = await graphqlRequest(
        `mutation ChangeUserRole($accountId: ID!, $role: String!, $specialty: String) {
          changeUserRole(accountId: $accountId, role: $role, specialty: $specialty) { ${ADMIN_USER_FIELDS} }
        }`,
        z.object({ changeUserRole: AdminUserSchema }),
        input,
      );
      return data.changeUserRole;
    },
    onSuccess: afterChange,
  });
}

export function useInviteUser() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: async (input: InviteUserInput) => {
      const data = await graphqlRequest(
        `mutation InviteUser($input: InviteUserInput!) { inviteUser(input: $input) { ${ADMIN_USER_FIELDS} } }`,
        z.object({ inviteUser: AdminUserSchema }),
        { input },
      );
      return data.inviteUser;
    },
    onSuccess: afterChange,
  });
}
