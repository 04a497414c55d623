import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmergencyReviewFilter, EmergencyReviewOutcome } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { useLiveMessages } from '../../../lib/live-channel.ts';

export const emergencyAccessQueryKeys = {
  all: ['emergency-access'] as const,
  mine: (patientId: string) => ['emergency-access', 'mine', patientId] as const,
  awaiting: ['emergency-access', 'awaiting'] as const,
  uses: (filter: EmergencyReviewFilter) => ['emergency-access', 'uses', filter] as const,
  use: (id: string) => ['emergency-access', 'use', id] as const,
};

const GrantSchema = z.object({ id: z.string(), patientId: z.string(), startedAt: z.string(), endsAt: z.string() });
export type EmergencyGrant = z.infer<typeof GrantSchema>;

const GRANT_FIELDS = 'id patientId startedAt endsAt';

/** The provider's emergency access in force to this patient, or null (read again when it ends). */
export function useMyEmergencyAccess(patientId: string, enabled: boolean) {
  return useQuery({
    queryKey: emergencyAccessQueryKeys.mine(patientId),
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyEmergencyAccess($patientId: ID!) { myEmergencyAccess(patientId: $patientId) { ${GRANT_FIELDS} } }`,
          z.object({ myEmergencyAccess: GrantSchema.nullable() }),
          { patientId },
          { signal },
        )
      ).myEmergencyAccess,
  });
}

export interface RequestEmergencyAccessVariables {
  patientId?: string;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  reason: string;
}

/** Breaks the glass; afterwards everything about patients is read again (the chart opens). */
export function useRequestEmergencyAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RequestEmergencyAccessVariables) =>
      (
        await graphqlRequest(
          `mutation RequestEmergencyAccess($input: RequestEmergencyAccessInput!) { requestEmergencyAccess(input: $input) { ${GRANT_FIELDS} } }`,
          z.object({ requestEmergencyAccess: GrantSchema }),
          { input },
        )
      ).requestEmergencyAccess,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useEndEmergencyAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      graphqlRequest('mutation EndEmergencyAccess($id: ID!) { endEmergencyAccess(id: $id) }', z.unknown(), { id }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

/** Administrators: how many uses wait for review; a new use or a review arrives over the live channel. */
export function useEmergencyAwaitingCount() {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'emergency-access-changed')
      void queryClient.invalidateQueries({ queryKey: emergencyAccessQueryKeys.all });
  });
  return useQuery({
    queryKey: emergencyAccessQueryKeys.awaiting,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query EmergencyAccessAwaitingReview { emergencyAccessAwaitingReview }',
          z.object({ emergencyAccessAwaitingReview: z.number() }),
          {},
          { signal },
        )
      ).emergencyAccessAwaitingReview,
  });
}

const ActivitySchema = z.object({ timestamp: z.string(), event: z.string(), operation: z.string().nullable() });
export type EmergencyActivity = z.infer<typeof ActivitySchema>;

const UseSchema = z.object({
  id: z.string(),
  providerName: z.string(),
  providerEmail: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  reason: z.string(),
  startedAt: z.string(),
  endsAt: z.string(),
  endedAt: z.string().nullable(),
  active: z.boolean(),
  activityCount: z.number(),
  reviewOutcome: z.enum(['appropriate', 'inappropriate']).nullable(),
  reviewNote: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewedByName: z.string().nullable(),
});
export type EmergencyUse = z.infer<typeof UseSchema>;

const USE_FIELDS = `id providerName providerEmail patientId patientName reason startedAt endsAt endedAt active
  activityCount reviewOutcome reviewNote reviewedAt reviewedByName`;

/** Administrators: the uses of emergency access, newest first, paging with nextToken. */
export function useEmergencyUses(filter: EmergencyReviewFilter) {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'emergency-access-changed')
      void queryClient.invalidateQueries({ queryKey: emergencyAccessQueryKeys.all });
  });
  return useInfiniteQuery({
    queryKey: emergencyAccessQueryKeys.uses(filter),
    initialPageParam: null as string | null,
    getNextPageParam: (last: { nextToken: string | null }) => last.nextToken,
    queryFn: async ({ pageParam, signal }) =>
      (
        await graphqlRequest(
          `query EmergencyAccessUses($filter: String, $nextToken: String) {
            emergencyAccessUses(filter: $filter, limit: 20, nextToken: $nextToken) { items { ${USE_FIELDS} } nextToken } }`,
          z.object({ emergencyAccessUses: z.object({ items: z.array(UseSchema), nextToken: z.string().nullable() }) }),
          { filter, nextToken: pageParam },
          { signal },
        )
      ).emergencyAccessUses,
  });
}

/** What was opened during one use (read when the administrator asks). */
export function useEmergencyActivity(id: string, enabled: boolean) {
  return useQuery({
    queryKey: emergencyAccessQueryKeys.use(id),
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query EmergencyAccessUse($id: ID!) { emergencyAccessUse(id: $id) { id activity { timestamp event operation } } }',
          z.object({ emergencyAccessUse: z.object({ activity: z.array(ActivitySchema).nullable() }) }),
          { id },
          { signal },
        )
      ).emergencyAccessUse.activity ?? [],
  });
}

export function useReviewEmergencyAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; outcome: EmergencyReviewOutcome; note: string | null }) =>
      (
        await graphqlRequest(
          `mutation ReviewEmergencyAccess($input: ReviewEmergencyAccessInput!) { reviewEmergencyAccess(input: $input) { ${USE_FIELDS} } }`,
          z.object({ reviewEmergencyAccess: UseSchema }),
          { input },
        )
      ).reviewEmergencyAccess,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emergencyAccessQueryKeys.all }),
  });
}
