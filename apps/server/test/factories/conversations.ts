/** Secure-message conversations for server tests, started through the API. */
import type { TestClient } from '../helpers.ts';
import { dataOf } from './graphql.ts';

const START = `mutation ($input: StartConversationInput!) { startConversation(input: $input) {
  id messages { id attachments { id } } } }`;

export interface StartedConversation {
  id: string;
  messages: { id: string; attachments: { id: string }[] }[];
}

/**
 * A conversation `from` starts about the patient: clinical, on sleep, unless `fields` adds to or replaces
 * the form's answers (kind, subject, body, attachment ids).
 */
export async function startConversation(
  from: TestClient,
  patientId: string,
  fields: Record<string, unknown> = {},
): Promise<StartedConversation> {
  const input = {
    patientId,
    kind: 'clinical',
    subject: 'Sleep since the new dose',
    body: 'I wake at 3 am.',
    ...fields,
  };
  return dataOf(await from.gql<{ startConversation: StartedConversation }>(START, { input })).startConversation;
}
