import { ACCESS_REQUEST_KINDS, ACCESS_REQUEST_STATUSES, PAGE_SIZE, type AccessRequestStatus } from '@telehealth/shared';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const SUMMARY_FIELDS =
  'id kind status firstName lastName email language createdAt reviewedAt reviewedBy reviewedByName declineReason';

const PROVIDER_FORM_FIELDS =
  'phone medicalLicense specialty subSpecialty yearsOfExperience boardCertifications practiceType organizationName practiceAddress practiceCity practiceState practiceZip currentEMR patientVolume telemedicineExperience interestedFeatures referralSource additionalInfo preferredContactMethod bestTimeToContact';

const PATIENT_FORM_FIELDS =
  'dateOfBirth phone address city state zipCode emergencyContactName emergencyContactPhone currentProvider providerPhone referringDoctor insuranceProvider reasonForInterest currentConditions currentMedications allergies servicesInterested preferredAppointmentTimes technologyComfort additionalQuestions hearAboutUs preferredContactMethod languagePreference consentToContact';

const DETAIL_FIELDS = `${SUMMARY_FIELDS} account emailHasAccount invitationPending invitationExpiresAt providerForm { ${PROVIDER_FORM_FIELDS} } patientForm { ${PATIENT_FORM_FIELDS} }`;

export const AccessRequestSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(ACCESS_REQUEST_KINDS),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  language: z.string(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedByName: z.string().nullable(),
  declineReason: z.string().nullable(),
});
export type AccessRequestSummary = z.infer<typeof AccessRequestSummarySchema>;

/** A submitted form as the server answers it: text fields (null when blank), lists, and the consent flag. */
const FormSchema = z.record(z.string(), z.union([z.string(), z.array(z.string()), z.boolean(), z.null()]));
export type AccessRequestForm = z.infer<typeof FormSchema>;

export const AccessRequestSchema = AccessRequestSummarySchema.extend({
  /** The account approval created. */
  account: z.string().nullable(),
  emailHasAccount: z.boolean(),
  /** The approved account has no password yet (it can be sent a new invitation). */
  invitationPending: z.boolean(),
  /** When the newest unused invitation link stops working (may be past); null when there is none. */
  invitationExpiresAt: z.string().nullable(),
  providerForm: FormSchema.nullable(),
  patientForm: FormSchema.nullable(),
});
export type AccessRequest = z.infer<typeof AccessRequestSchema>;

const ListSchema = z.object({ items: z.array(AccessRequestSummarySchema), nextToken: z.string().nullable() });
export type AccessRequestPage = z.infer<typeof ListSchema>;

const CountsSchema = z.object({ new: z.number().int(), approved: z.number().int(), declined: z.number().int() });
export type AccessRequestCounts = z.infer<typeof CountsSchema>;

export const accessRequestQueryKeys = {
  all: ['access-requests'] as const,
  list: (status: AccessRequestStatus) => ['access-requests', 'list', status] as const,
  counts: ['access-requests', 'counts'] as const,
  detail: (id: string) => ['access-requests', 'detail', id] as const,
  providers: ['access-requests', 'provider-options'] as const,
  outbox: ['outbox'] as const,
};

export function accessRequestListQueryOptions(status: AccessRequestStatus) {
  return infiniteQueryOptions({
    queryKey: accessRequestQueryKeys.list(status),
    queryFn: async ({ pageParam, signal }) => {
      const data = await graphqlRequest(
        `query ListAccessRequests($status: String, $limit: Int, $nextToken: String) {
          listAccessRequests(status: $status, limit: $limit, nextToken: $nextToken) { items { ${SUMMARY_FIELDS} } nextToken }
        }`,
        z.object({ listAccessRequests: ListSchema }),
        { status, limit: PAGE_SIZE, nextToken: pageParam },
        { signal },
      );
      return data.listAccessRequests;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextToken,
  });
}

export const accessRequestCountsQueryOptions = queryOptions({
  queryKey: accessRequestQueryKeys.counts,
  queryFn: async ({ signal }) => {
    const data = await graphqlRequest(
      'query AccessRequestCounts { accessRequestCounts { new approved declined } }',
      z.object({ accessRequestCounts: CountsSchema }),
      {},
      { signal },
    );
    return data.accessRequestCounts;
  },
});

export function accessRequestQueryOptions(id: string) {
  return queryOptions({
    queryKey: accessRequestQueryKeys.detail(id),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query GetAccessRequest($id: ID!) { getAccessRequest(id: $id) { ${DETAIL_FIELDS} } }`,
        z.object({ getAccessRequest: AccessRequestSchema }),
        { id },
        { signal },
      );
      return data.getAccessRequest;
    },
    // A view is audited: do not re-read the request behind the administrator's back.
    staleTime: Infinity,
  });
}

const ProviderOptionSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  owner: z.string(),
  isActive: z.boolean(),
});
export type ProviderOption = z.infer<typeof ProviderOptionSchema>;

/** Every provider (all pages), for the "Primary provider" choice of a patient request. */
export const providerOptionsQueryOptions = queryOptions({
  queryKey: accessRequestQueryKeys.providers,
  queryFn: async ({ signal }) => {
    const options: ProviderOption[] = [];
    let nextToken: string | null = null;
    do {
      const data: { listDoctors: { items: ProviderOption[]; nextToken: string | null } } = await graphqlRequest(
        `query ProviderOptions($limit: Int, $nextToken: String) {
          listDoctors(limit: $limit, nextToken: $nextToken) { items { firstName lastName owner isActive } nextToken }
        }`,
        z.object({ listDoctors: z.object({ items: z.array(ProviderOptionSchema), nextToken: z.string().nullable() }) }),
        { limit: PAGE_SIZE, nextToken },
        { signal },
      );
      options.push(...data.listDoctors.items);
      nextToken = data.listDoctors.nextToken;
    } while (nextToken);
    return options.filter((option) => option.isActive);
  },
});

function afterReview(queryClient: QueryClient, request: AccessRequest) {
  queryClient.setQueryData(accessRequestQueryKeys.detail(request.id), request);
  void queryClient.invalidateQueries({ queryKey: ['access-requests', 'list'] });
  void queryClient.invalidateQueries({ queryKey: accessRequestQueryKeys.counts });
  void queryClient.invalidateQueries({ queryKey: accessRequestQueryKeys.outbox });
}

export function useApproveAccessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; ownerProviderId: string | null }) => {
      const data = await graphqlRequest(
        `mutation ApproveAccessRequest($id: ID!, $ownerProviderId: ID) {
          approveAccessRequest(id: $id, ownerProviderId: $ownerProviderId) { ${DETAIL_FIELDS} }
        }`,
        z.object({ approveAccessRequest: AccessRequestSchema }),
        input,
      );
      return data.approveAccessRequest;
    },
    onSuccess: (request) => {
      afterReview(queryClient, request);
    },
  });
}

export function useDeclineAccessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; reason: string }) => {
      const data = await graphqlRequest(
        `mutation DeclineAccessRequest($id: ID!, $reason: String) {
          declineAccessRequest(id: $id, reason: $reason) { ${DETAIL_FIELDS} }
        }`,
        z.object({ declineAccessRequest: AccessRequestSchema }),
        input,
      );
      return data.declineAccessRequest;
    },
    onSuccess: (request) => {
      afterReview(queryClient, request);
    },
  });
}

const SendInvitationSchema = z.object({
  sendInvitation: z.object({ success: z.boolean(), message: z.string(), expiresAt: z.string() }),
});

/**
 * E-mails a new invitation to the account an approved request created; the previous link stops working.
 * The open request shows the new link's expiry without being read (and audited) again.
 */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AccessRequest) => {
      if (!request.account) throw new Error('The request has no account');
      const data = await graphqlRequest(
        `mutation SendInvitation($accountId: ID!) { sendInvitation(accountId: $accountId) { success message expiresAt } }`,
        SendInvitationSchema,
        { accountId: request.account },
      );
      return data.sendInvitation;
    },
    onSuccess: (result, request) => {
      queryClient.setQueryData<AccessRequest>(accessRequestQueryKeys.detail(request.id), (current) =>
        current ? { ...current, invitationPending: true, invitationExpiresAt: result.expiresAt } : current,
      );
      void queryClient.invalidateQueries({ queryKey: accessRequestQueryKeys.outbox });
    },
  });
}

export const OutboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string().nullable(),
  kind: z.string(),
  language: z.string(),
  status: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  calendarMethod: z.string().nullable(),
  calendarIcs: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof OutboxMailSchema>;

export function outboxQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accessRequestQueryKeys.outbox,
    queryFn: async ({ pageParam, signal }) => {
      const data = await graphqlRequest(
        `query ListOutbox($limit: Int, $nextToken: String) {
          listOutbox(limit: $limit, nextToken: $nextToken) { items { id to subject text kind language status createdAt sentAt calendarMethod calendarIcs } nextToken }
        }`,
        z.object({ listOutbox: z.object({ items: z.array(OutboxMailSchema), nextToken: z.string().nullable() }) }),
        { limit: PAGE_SIZE, nextToken: pageParam },
        { signal },
      );
      return data.listOutbox;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextToken,
  });
}
