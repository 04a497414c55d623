/** Clinical notes for server tests, written (and signed) by a provider through the API. */
import { DEMO_PASSWORD } from '@telehealth/shared';
import type { TestClient } from '../helpers.ts';
import { dataOf, nextSerial } from './graphql.ts';

const CREATE_NOTE = 'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }';
const SIGN_NOTE = 'mutation ($input: SignNoteInput!) { signNote(input: $input) { id status } }';

/** A draft note by `author`: `fields` adds to or replaces a visit summary with a unique title. */
export async function createNote(author: TestClient, fields: Record<string, unknown> = {}): Promise<string> {
  const input = { title: `Visit summary ${nextSerial()}`, content: 'Sleep improved; continue the plan.', ...fields };
  return dataOf(await author.gql<{ createNote: { id: string } }>(CREATE_NOTE, { input })).createNote.id;
}

/** Signs the note with the author's password (the demo password unless given). */
export async function signNote(author: TestClient, id: string, password: string = DEMO_PASSWORD): Promise<void> {
  dataOf(await author.gql(SIGN_NOTE, { input: { id, password } }));
}

/** A note by `author` about the patient, signed (unless `sign: false`), private only if asked. */
export async function createSignedNote(
  author: TestClient,
  patientId: string,
  options: { isPrivate?: boolean; sign?: boolean; password?: string } = {},
): Promise<string> {
  const id = await createNote(author, { patientId, isPrivate: options.isPrivate ?? false });
  if (options.sign !== false) await signNote(author, id, options.password);
  return id;
}
