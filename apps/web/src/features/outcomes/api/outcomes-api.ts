import { queryOptions } from '@tanstack/react-query';
import type { OutcomeInstrument } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const FiguresSchema = z.object({
  patients: z.number(),
  responders: z.number(),
  remitters: z.number(),
  responseRate: z.number().nullable(),
  remissionRate: z.number().nullable(),
  tooFew: z.boolean(),
});
export type OutcomeFigures = z.infer<typeof FiguresSchema>;

const GroupSchema = FiguresSchema.extend({ key: z.string().nullable(), label: z.string().nullable() });
export type OutcomeGroup = z.infer<typeof GroupSchema>;

export const PracticeOutcomesSchema = FiguresSchema.extend({
  instrument: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  byProvider: z.array(GroupSchema),
  byDiagnosis: z.array(GroupSchema),
  byMedicationClass: z.array(GroupSchema),
});
export type PracticeOutcomes = z.infer<typeof PracticeOutcomesSchema>;

export interface PracticeOutcomesRequest {
  startDate: string;
  endDate: string;
  instrument: OutcomeInstrument;
}

const FIGURES = 'patients responders remitters responseRate remissionRate tooFew';
const GROUP = `key label ${FIGURES}`;

/** Response and remission of a period, computed by the server (decision 064): the caller's own patients or all. */
export function practiceOutcomesQueryOptions(input: PracticeOutcomesRequest) {
  return queryOptions({
    queryKey: ['practice-outcomes', input] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query PracticeOutcomes($input: PracticeOutcomesInput!) {
          practiceOutcomes(input: $input) {
            instrument periodStart periodEnd ${FIGURES}
            byProvider { ${GROUP} } byDiagnosis { ${GROUP} } byMedicationClass { ${GROUP} }
          }
        }`,
        z.object({ practiceOutcomes: PracticeOutcomesSchema }),
        { input },
        { signal },
      );
      return data.practiceOutcomes;
    },
    // Each read is an audited PRACTICE_OUTCOMES_VIEW: read again when the question changes, not on every focus.
    refetchOnWindowFocus: false,
    staleTime: 5 * 60_000,
  });
}
