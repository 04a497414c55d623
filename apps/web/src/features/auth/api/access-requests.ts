import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export type AccessRequestKind = 'provider' | 'patient';

const ActionResultSchema = z.object({ success: z.boolean(), message: z.string().nullable() });
export type ActionResult = z.infer<typeof ActionResultSchema>;

const MUTATIONS = {
  provider: `mutation SubmitProviderAccessRequest($input: ProviderAccessRequestInput!) {
  submitProviderAccessRequest(input: $input) { success message }
}`,
  patient: `mutation SubmitPatientAccessRequest($input: PatientAccessRequestInput!) {
  submitPatientAccessRequest(input: $input) { success message }
}`,
} as const;

/** Sends a request form. Blank text fields go as null; the server parses again with the shared schema. */
export async function submitAccessRequest(
  kind: AccessRequestKind,
  input: Record<string, unknown>,
): Promise<ActionResult> {
  const cleaned = Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key, typeof value === 'string' && value.trim() === '' ? null : value]),
  );
  // The honeypot is sent as typed (an empty string), so a bot's filled one reaches the server.
  cleaned['website'] = input['website'] ?? '';
  if (kind === 'provider') {
    const data = await graphqlRequest(
      MUTATIONS.provider,
      z.object({ submitProviderAccessRequest: ActionResultSchema }),
      {
        input: cleaned,
      },
    );
    return data.submitProviderAccessRequest;
  }
  const data = await graphqlRequest(MUTATIONS.patient, z.object({ submitPatientAccessRequest: ActionResultSchema }), {
    input: cleaned,
  });
  return data.submitPatientAccessRequest;
}

export function useSubmitAccessRequest(kind: AccessRequestKind) {
  return useMutation({
    mutationFn: (input: Record<string, unknown>) => submitAccessRequest(kind, input),
  });
}
