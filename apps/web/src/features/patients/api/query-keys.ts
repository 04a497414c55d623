import { toFilterInput, type PatientListFilter } from './patient-schemas.ts';

/**
 * Every patient query starts with 'patients', so one invalidation reaches lists, counts and records. The
 * provider choices start with 'providers': the providers screen invalidates that prefix when it adds one.
 */
export const patientQueryKeys = {
  all: ['patients'] as const,
  lists: ['patients', 'list'] as const,
  list: (filter: PatientListFilter) => ['patients', 'list', toFilterInput(filter)] as const,
  counts: ['patients', 'count'] as const,
  count: (filter: PatientListFilter) => ['patients', 'count', toFilterInput(filter)] as const,
  detail: (id: string) => ['patients', 'detail', id] as const,
  providerOptions: ['providers', 'options'] as const,
};
