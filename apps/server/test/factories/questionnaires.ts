/** Rating-scale questionnaires for server tests: sent by a provider, filled in by the patient, through the API. */
import type { Instrument } from '@telehealth/shared';
import type { GraphQLResponse, TestClient } from '../helpers.ts';
import { dataOf } from './graphql.ts';

const SEND = 'mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { id instrument status } }';
const SUBMIT = `mutation ($input: SubmitQuestionnaireInput!) { submitQuestionnaire(input: $input) {
  safetyAlert questionnaire { id status total band answers { item loinc value } } } }`;

export type { Instrument };

// A type, not an interface: a GraphQLResponse of it must fit the Record<string, unknown> the helpers take.
export type SubmittedQuestionnaire = {
  submitQuestionnaire: {
    safetyAlert: boolean;
    questionnaire: {
      id: string;
      status: string;
      total: number;
      band: string;
      answers: { item: string; loinc: string | null; value: number }[];
    };
  };
};

/** Sends the patient a questionnaire as `provider`; answers its id. */
export async function sendQuestionnaire(provider: TestClient, patientId: string, instrument: Instrument) {
  const response = await provider.gql<{ sendQuestionnaire: { id: string } }>(SEND, {
    input: { patientId, instrument },
  });
  return dataOf(response).sendQuestionnaire.id;
}

/** The patient's answers to a questionnaire (difficulty 1 unless given), as the server answered them. */
export function submitQuestionnaire(
  patient: TestClient,
  id: string,
  answers: number[],
  difficulty = 1,
): Promise<GraphQLResponse<SubmittedQuestionnaire>> {
  return patient.gql<SubmittedQuestionnaire>(SUBMIT, { input: { id, answers, difficulty } });
}
