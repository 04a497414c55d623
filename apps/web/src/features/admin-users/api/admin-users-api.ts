import { PAGE_SIZE, type InviteUserInput, type Role, type UserStatus } from '@telehealth/shared';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const USER_FIELDS =
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
            items { ${USER_FIELDS} } nextToken
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

const ACTION_MUTATIONS: Record<UserAction, string> = {
  deactivate: 'deactivateUser',
  reactivate: 'reactivateUser',
  sendPasswordReset: 'sendUserPasswordReset',
  resetTwoFactor: 'resetUserTwoFactor',
  unlock: 'unlockUser',
};

function useAfterChange() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['admin-users', 'list'] });
}

export function useUserAction() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: async ({ action, accountId }: { action: UserAction; accountId: string }) => {
      const name = ACTION_MUTATIONS[action];
      const data = await graphqlRequest(
        `mutation ($accountId: ID!) { ${name}(accountId: $accountId) { ${USER_FIELDS} } }`,
        z.object({ [name]: AdminUserSchema }),
        { accountId },
      );
      return data[name] as AdminUser;
    },
    onSuccess: afterChange,
  });
}

export function useChangeUserRole() {
  const afterChange = useAfterChange();
  return useMutation({
    mutationFn: async (input: { accountId: string; role: 'admin' | 'provider'; specialty: string | null }) => {
      const data = await graphqlRequest(
        `mutation ChangeUserRole($accountId: ID!, $role: String!, $specialty: String) {
          changeUserRole(accountId: $accountId, role: $role, specialty: $specialty) { ${USER_FIELDS} }
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
        `mutation InviteUser($input: InviteUserInput!) { inviteUser(input: $input) { ${USER_FIELDS} } }`,
        z.object({ inviteUser: AdminUserSchema }),
        { input },
      );
      return data.inviteUser;
    },
    onSuccess: afterChange,
  });
}
