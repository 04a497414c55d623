import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { AUDIT_SEARCH_PAGE_SIZE, type AuditSearchFilterInput } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const AuditEntrySchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  event: z.string(),
  level: z.string(),
  source: z.string(),
  userId: z.string(),
  userRole: z.string(),
  personName: z.string().nullable(),
  personEmail: z.string().nullable(),
  sessionId: z.string().nullable(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  url: z.string().nullable(),
  referrer: z.string().nullable(),
  details: z.string(),
  hipaaRequired: z.boolean(),
  retentionYears: z.number(),
  chainPosition: z.number().nullable(),
  checksum: z.string().nullable(),
  sealedAt: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const LIST_FIELDS = 'id timestamp event level source userId userRole personName personEmail url details';
const ENTRY_FIELDS =
  'id timestamp event level source userId userRole personName personEmail sessionId clientIp userAgent url referrer details hipaaRequired retentionYears chainPosition checksum sealedAt';

const AuditListEntrySchema = AuditEntrySchema.pick({
  id: true,
  timestamp: true,
  event: true,
  level: true,
  source: true,
  userId: true,
  userRole: true,
  personName: true,
  personEmail: true,
  url: true,
  details: true,
});
export type AuditListEntry = z.infer<typeof AuditListEntrySchema>;

export const AuditVerificationSchema = z.object({
  ok: z.boolean(),
  entriesChecked: z.number(),
  checkedAt: z.string(),
  brokenAt: z.number().nullable(),
  reason: z.string().nullable(),
  anchorsChecked: z.number(),
  anchorProblems: z.array(z.string()),
  unsealed: z.number(),
  stranded: z.number(),
  verifiedBy: z.string(),
});
export type AuditVerification = z.infer<typeof AuditVerificationSchema>;
const VERIFICATION_FIELDS =
  'ok entriesChecked checkedAt brokenAt reason anchorsChecked anchorProblems unsealed stranded verifiedBy';

export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  tokenHint: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;
const TOKEN_FIELDS = 'id name tokenHint scopes createdAt createdByName expiresAt revokedAt lastUsedAt';

export const auditTrailQueryKeys = {
  all: ['audit-trail'] as const,
  search: (filter: AuditSearchFilterInput) => ['audit-trail', 'search', filter] as const,
  entry: (id: string) => ['audit-trail', 'entry', id] as const,
  verification: ['audit-trail', 'verification'] as const,
  tokens: ['api-tokens'] as const,
};

/** The audit search, page by page (keyset: each page asks for the entries after the last one shown). */
export function auditSearchQueryOptions(filter: AuditSearchFilterInput) {
  return infiniteQueryOptions({
    queryKey: auditTrailQueryKeys.search(filter),
    initialPageParam: null as string | null,
    getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor,
    queryFn: async ({ pageParam, signal }) => {
      const data = await graphqlRequest(
        `query AuditEntries($filter: AuditSearchFilter, $first: Int, $after: String) {
          auditEntries(filter: $filter, first: $first, after: $after) { entries { ${LIST_FIELDS} } nextCursor }
        }`,
        z.object({
          auditEntries: z.object({ entries: z.array(AuditListEntrySchema), nextCursor: z.string().nullable() }),
        }),
        { filter, first: AUDIT_SEARCH_PAGE_SIZE, after: pageParam },
        { signal },
      );
      return data.auditEntries;
    },
    // A search is audited: run it when asked, not on every focus.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

export function auditEntryQueryOptions(id: string) {
  return queryOptions({
    queryKey: auditTrailQueryKeys.entry(id),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query AuditEntry($id: ID!) { auditEntry(id: $id) { ${ENTRY_FIELDS} } }`,
        z.object({ auditEntry: AuditEntrySchema }),
        { id },
        { signal },
      );
      return data.auditEntry;
    },
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

export function latestVerificationQueryOptions() {
  return queryOptions({
    queryKey: auditTrailQueryKeys.verification,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query LatestAuditVerification { latestAuditVerification { ${VERIFICATION_FIELDS} } }`,
        z.object({ latestAuditVerification: AuditVerificationSchema.nullable() }),
        {},
        { signal },
      );
      return data.latestAuditVerification;
    },
  });
}

export function useVerifyAuditChain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const data = await graphqlRequest(
        `mutation VerifyAuditChain { verifyAuditChain { ${VERIFICATION_FIELDS} } }`,
        z.object({ verifyAuditChain: AuditVerificationSchema }),
      );
      return data.verifyAuditChain;
    },
    onSuccess: (result) => {
      queryClient.setQueryData(auditTrailQueryKeys.verification, result);
    },
  });
}

export function apiTokensQueryOptions() {
  return queryOptions({
    queryKey: auditTrailQueryKeys.tokens,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query ApiTokens { apiTokens { ${TOKEN_FIELDS} } }`,
        z.object({ apiTokens: z.array(ApiTokenSchema) }),
        {},
        { signal },
      );
      return data.apiTokens;
    },
  });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string; scopes: string[]; expiresInDays: number }) => {
      const data = await graphqlRequest(
        `mutation CreateApiToken($input: CreateApiTokenInput!) { createApiToken(input: $input) { token { ${TOKEN_FIELDS} } secret } }`,
        z.object({ createApiToken: z.object({ token: ApiTokenSchema, secret: z.string() }) }),
        { input },
      );
      return data.createApiToken;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: auditTrailQueryKeys.tokens });
    },
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const data = await graphqlRequest(
        `mutation RevokeApiToken($id: ID!) { revokeApiToken(id: $id) { ${TOKEN_FIELDS} } }`,
        z.object({ revokeApiToken: ApiTokenSchema }),
        { id },
      );
      return data.revokeApiToken;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: auditTrailQueryKeys.tokens });
    },
  });
}
