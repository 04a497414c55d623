import { PREFERRED_APPOINTMENT_TIMES, SLOT_STEPS } from '@telehealth/shared';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from './graphql.ts';

const PracticeHoursSchema = z.object({
  slotStepMinutes: z.union(SLOT_STEPS.map((step) => z.literal(step))),
  earliestStart: z.string().nullable(),
  latestEnd: z.string().nullable(),
  preferredTimes: z.array(z.enum(PREFERRED_APPOINTMENT_TIMES)),
});
export type PracticeHours = z.infer<typeof PracticeHoursSchema>;

export const practiceHoursQueryKey = ['practice-hours'] as const;

/**
 * What the practice's working hours cover as a whole (public, no names; decision 045): the step of its start
 * times, the earliest start and latest end of any provider's week, the preferred appointment times covered.
 */
export const practiceHoursQueryOptions = queryOptions({
  queryKey: practiceHoursQueryKey,
  queryFn: async ({ signal }) => {
    const data = await graphqlRequest(
      'query PracticeHours { practiceHours { slotStepMinutes earliestStart latestEnd preferredTimes } }',
      z.object({ practiceHours: PracticeHoursSchema }),
      undefined,
      { signal },
    );
    return data.practiceHours;
  },
  staleTime: 60_000,
});
