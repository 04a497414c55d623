import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import type { PatientPage } from './list-patients.ts';
import { patientQueryKeys } from './query-keys.ts';

const DELETE_PATIENT_MUTATION = `mutation DeletePatient($input: DeletePatientInput!) {
  deletePatient(input: $input) { id }
}`;

export async function deletePatient(id: string): Promise<{ id: string }> {
  const data = await graphqlRequest(
    DELETE_PATIENT_MUTATION,
    z.object({ deletePatient: z.object({ id: z.string() }) }),
    {
      input: { id },
    },
  );
  return data.deletePatient;
}

/** The loaded pages without one patient; the paging tokens stay valid (they are sort keys, not offsets). */
export function removePatientFromPages(
  data: InfiniteData<PatientPage, string | null> | undefined,
  id: string,
): InfiniteData<PatientPage, string | null> | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, items: page.items.filter((patient) => patient.id !== id) })),
  };
}

export function useDeletePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePatient,
    onSuccess: async ({ id }) => {
      queryClient.removeQueries({ queryKey: patientQueryKeys.detail(id) });
      // The card goes at once from every loaded list, without reloading pages the person scrolled through;
      // the lists are marked stale so that they are read again when next opened.
      queryClient.setQueriesData<InfiniteData<PatientPage, string | null>>(
        { queryKey: patientQueryKeys.lists },
        (data) => removePatientFromPages(data, id),
      );
      await queryClient.invalidateQueries({ queryKey: patientQueryKeys.lists, refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: patientQueryKeys.counts });
    },
  });
}
