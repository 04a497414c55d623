import { useQuery } from '@tanstack/react-query';
import { FIRST_VISIT_ITEM_KINDS, INSTRUMENTS, INTAKE_STATUSES, MAX_READINESS_PATIENTS } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const firstVisitQueryKeys = {
  checklist: ['first-visit', 'checklist'] as const,
  readiness: (patientIds: readonly string[]) => ['first-visit', 'readiness', ...patientIds] as const,
};

const ItemSchema = z.object({
  kind: z.enum(FIRST_VISIT_ITEM_KINDS),
  id: z.string(),
  documentKind: z.string().nullable(),
  titleEn: z.string().nullable(),
  titleEs: z.string().nullable(),
  status: z.string(),
  instrument: z.enum(INSTRUMENTS).nullable(),
});
export type FirstVisitItem = z.infer<typeof ItemSchema>;

const ReadinessSchema = z.object({
  patientId: z.string(),
  intakeStatus: z.enum(INTAKE_STATUSES),
  intakeBadge: z.enum(['incomplete', 'to-review']).nullable(),
  consentMissing: z.boolean(),
});
export type PatientReadiness = z.infer<typeof ReadinessSchema>;

/** What the signed-in patient still has to do before the first visit (the server audits each read). */
export function useMyFirstVisitChecklist() {
  return useQuery({
    queryKey: firstVisitQueryKeys.checklist,
    // Done elsewhere (a document signed, the intake sent, a questionnaire answered): fresh each time the card shows.
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query MyFirstVisitChecklist { myFirstVisitChecklist { kind id documentKind titleEn titleEs status instrument } }',
          z.object({ myFirstVisitChecklist: z.array(ItemSchema) }),
          {},
          { signal },
        )
      ).myFirstVisitChecklist,
  });
}

/** The readiness of the patients shown, in one request (sorted ids, so one list asks once). */
export function usePatientReadiness(patientIds: readonly string[], enabled = true) {
  const ids = [...new Set(patientIds)].sort().slice(0, MAX_READINESS_PATIENTS);
  return useQuery({
    queryKey: firstVisitQueryKeys.readiness(ids),
    enabled: enabled && ids.length > 0,
    queryFn: async ({ signal }) => {
      const { patientReadiness } = await graphqlRequest(
        'query PatientReadiness($patientIds: [ID!]!) { patientReadiness(patientIds: $patientIds) { patientId intakeStatus intakeBadge consentMissing } }',
        z.object({ patientReadiness: z.array(ReadinessSchema) }),
        { patientIds: ids },
        { signal },
      );
      return new Map(patientReadiness.map((r) => [r.patientId, r]));
    },
  });
}
