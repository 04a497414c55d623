/** Secure-message conversations for server tests, started through the API. */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { MESSAGE_ATTACHMENT_NAME_HEADER, MESSAGE_ATTACHMENTS_PATH } from '@telehealth/shared';
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

/**
 * A file uploaded as a message attachment by `client`, as the browser sends it: the bytes as the body, the name in
 * its header. Answers the route's response (201 with the attachment's id, or the refusal under test).
 */
export function uploadAttachment(
  app: FastifyInstance,
  client: TestClient,
  payload: Buffer | Readable,
  { fileName = 'scan.png', contentType = 'image/png' }: { fileName?: string; contentType?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: MESSAGE_ATTACHMENTS_PATH,
    headers: {
      cookie: client.cookie ?? '',
      'content-type': contentType,
      [MESSAGE_ATTACHMENT_NAME_HEADER]: encodeURIComponent(fileName),
    },
    payload,
  });
}
