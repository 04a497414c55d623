import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  INSTRUMENTS,
  TREATMENT_PLAN_STATUSES,
  type SaveTreatmentPlanData,
  type SignTreatmentPlanInput,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const treatmentPlanQueryKeys = {
  all: ['treatment-plans'] as const,
  current: (patientId: string) => ['treatment-plans', 'current', patientId] as const,
  history: (planId: string) => ['treatment-plans', 'history', planId] as const,
  due: ['treatment-plans', 'due'] as const,
};

const PlanVersionSchema = z.object({
  id: z.string(),
  planId: z.string(),
  patientId: z.string(),
  version: z.number(),
  status: z.enum(TREATMENT_PLAN_STATUSES),
  signed: z.boolean(),
  problems: z.array(z.object({ diagnosisId: z.string(), code: z.string(), title: z.string() })),
  goals: z.array(
    z.object({
      description: z.string(),
      instrument: z.enum(INSTRUMENTS).nullable(),
      targetBelow: z.number().nullable(),
      targetDate: z.string().nullable(),
    }),
  ),
  interventions: z.array(z.string()),
  targetDate: z.string().nullable(),
  reviewDate: z.string(),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedByName: z.string(),
  updatedAt: z.string(),
  signedByName: z.string().nullable(),
  signedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
});
export type TreatmentPlanVersion = z.infer<typeof PlanVersionSchema>;

const FIELDS = `id planId patientId version status signed problems { diagnosisId code title }
  goals { description instrument targetBelow targetDate } interventions targetDate reviewDate
  createdByName createdAt updatedByName updatedAt signedByName signedAt acknowledgedAt`;

const DueSchema = z.object({
  planId: z.string(),
  versionId: z.string(),
  version: z.number(),
  patientId: z.string(),
  patientName: z.string(),
  reviewDate: z.string(),
});
export type TreatmentPlanDue = z.infer<typeof DueSchema>;

/**
 * The patient's current plan (its provider: the latest version, a draft included; the patient: the latest signed
 * one), or null. The server audits each read.
 */
export function useTreatmentPlan(patientId: string) {
  return useQuery({
    queryKey: treatmentPlanQueryKeys.current(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query TreatmentPlan($patientId: ID!) { treatmentPlan(patientId: $patientId) { ${FIELDS} } }`,
          z.object({ treatmentPlan: PlanVersionSchema.nullable() }),
          { patientId },
          { signal },
        )
      ).treatmentPlan,
  });
}

/** Every version of the plan, newest first (read when the history is opened). */
export function useTreatmentPlanHistory(planId: string, enabled: boolean) {
  return useQuery({
    queryKey: treatmentPlanQueryKeys.history(planId),
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query TreatmentPlanHistory($planId: ID!) { treatmentPlanHistory(planId: $planId) { ${FIELDS} } }`,
          z.object({ treatmentPlanHistory: z.array(PlanVersionSchema) }),
          { planId },
          { signal },
        )
      ).treatmentPlanHistory,
  });
}

/** The provider's patients' plans whose review date has come (the dashboard). */
export function useTreatmentPlansDue() {
  return useQuery({
    queryKey: treatmentPlanQueryKeys.due,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          '{ treatmentPlansDueForReview { planId versionId version patientId patientName reviewDate } }',
          z.object({ treatmentPlansDueForReview: z.array(DueSchema) }),
          {},
          { signal },
        )
      ).treatmentPlansDueForReview,
  });
}

function useAfterPlanChange() {
  const queryClient = useQueryClient();
  return (version: TreatmentPlanVersion) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: treatmentPlanQueryKeys.current(version.patientId) }),
      queryClient.invalidateQueries({ queryKey: treatmentPlanQueryKeys.history(version.planId) }),
      queryClient.invalidateQueries({ queryKey: treatmentPlanQueryKeys.due }),
    ]);
}

export function useSaveTreatmentPlan() {
  const after = useAfterPlanChange();
  return useMutation({
    mutationFn: async (input: SaveTreatmentPlanData) =>
      (
        await graphqlRequest(
          `mutation SaveTreatmentPlan($input: SaveTreatmentPlanInput!) { saveTreatmentPlan(input: $input) { ${FIELDS} } }`,
          z.object({ saveTreatmentPlan: PlanVersionSchema }),
          { input },
        )
      ).saveTreatmentPlan,
    onSuccess: after,
  });
}

export function useSignTreatmentPlan() {
  const after = useAfterPlanChange();
  return useMutation({
    mutationFn: async (input: SignTreatmentPlanInput) =>
      (
        await graphqlRequest(
          `mutation SignTreatmentPlan($input: SignTreatmentPlanInput!) { signTreatmentPlan(input: $input) { ${FIELDS} } }`,
          z.object({ signTreatmentPlan: PlanVersionSchema }),
          { input },
        )
      ).signTreatmentPlan,
    onSuccess: after,
  });
}

/** The patient says they have read the plan's latest signed version. */
export function useAcknowledgeTreatmentPlan() {
  const after = useAfterPlanChange();
  return useMutation({
    mutationFn: async (versionId: string) =>
      (
        await graphqlRequest(
          `mutation AcknowledgeTreatmentPlan($versionId: ID!) { acknowledgeTreatmentPlan(versionId: $versionId) { ${FIELDS} } }`,
          z.object({ acknowledgeTreatmentPlan: PlanVersionSchema }),
          { versionId },
        )
      ).acknowledgeTreatmentPlan,
    onSuccess: after,
  });
}
