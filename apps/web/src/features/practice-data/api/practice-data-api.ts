import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const BackupRunSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'skipped']),
  trigger: z.enum(['schedule', 'manual', 'cli']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  progress: z.number(),
  bytes: z.number().nullable(),
  fileName: z.string().nullable(),
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof BackupRunSchema>;

const RUN_FIELDS = 'id status trigger startedAt finishedAt progress bytes fileName error';

export const ExportCountsSchema = z.object({
  patients: z.number(),
  practitioners: z.number(),
  appointments: z.number(),
  observations: z.number(),
  documentReferences: z.number(),
  conditions: z.number(),
  medicationStatements: z.number(),
  allergyIntolerances: z.number(),
  carePlans: z.number(),
  goals: z.number(),
});

export const practiceDataKeys = { runs: ['backup-runs'] as const, counts: ['fhir-export-counts'] as const };

/** The newest backups; polled every two seconds while one runs. */
export function backupRunsQueryOptions() {
  return queryOptions({
    queryKey: practiceDataKeys.runs,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query BackupRuns { backupRuns(limit: 20) { ${RUN_FIELDS} } }`,
          z.object({ backupRuns: z.array(BackupRunSchema) }),
          {},
          { signal },
        )
      ).backupRuns,
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'running') ? 2000 : false),
  });
}

export function exportCountsQueryOptions() {
  return queryOptions({
    queryKey: practiceDataKeys.counts,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query FhirExportCounts { fhirExportCounts {
            patients practitioners appointments observations documentReferences
            conditions medicationStatements allergyIntolerances carePlans goals } }`,
          z.object({ fhirExportCounts: ExportCountsSchema }),
          {},
          { signal },
        )
      ).fhirExportCounts,
  });
}

/** "Back up now": a job on the server; the list then shows its progress. */
export function useStartBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await graphqlRequest(
          `mutation StartBackup { startBackup { ${RUN_FIELDS} } }`,
          z.object({ startBackup: BackupRunSchema }),
        )
      ).startBackup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: practiceDataKeys.runs }),
  });
}

/** Where the FHIR downloads are (plain HTTP, the session cookie). */
export const FHIR_EXPORT_PATH = '/api/admin/data/fhir';
export const FHIR_TYPES = [
  'Patient',
  'Practitioner',
  'Appointment',
  'Observation',
  'DocumentReference',
  'Condition',
  'MedicationStatement',
  'AllergyIntolerance',
  'CarePlan',
  'Goal',
] as const;
