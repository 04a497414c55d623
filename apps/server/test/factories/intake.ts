/**
 * Intake packets for server tests (decision 067): sections saved and submitted by the patient through the API, as
 * the portal does; a whole packet in one call.
 */
import type { IntakeSection } from '@telehealth/shared';
import type { GraphQLResponse, TestClient } from '../helpers.ts';
import { dataOf } from './graphql.ts';

export const INTAKE_FIELDS = `id patientId status steps currentSection answers submittedAt acceptedAt returnedAt returnReason
  recordDetails { field value } detailChanges { field current reported defaultChoice }
  cardPhotos { id side mediaType sizeBytes }`;
const SAVE = `mutation ($input: SaveIntakeSectionInput!) { saveIntakeSection(input: $input) { ${INTAKE_FIELDS} } }`;
const SUBMIT = `mutation ($patientId: ID!) { submitIntake(patientId: $patientId) { ${INTAKE_FIELDS} } }`;
const MINE = `{ myIntake { ${INTAKE_FIELDS} } }`;

export type IntakeData = {
  id: string | null;
  patientId: string;
  status: string;
  steps: string[];
  currentSection: string;
  answers: string;
  submittedAt: string | null;
  acceptedAt: string | null;
  returnedAt: string | null;
  returnReason: string | null;
  recordDetails: { field: string; value: string | null }[];
  detailChanges: { field: string; current: string | null; reported: string | null; defaultChoice: string }[];
  cardPhotos: { id: string; side: string; mediaType: string; sizeBytes: number }[];
};

/** Saves one section as the patient; answers the response (a refusal is the test's to read). */
export function saveIntakeSection(
  patient: TestClient,
  patientId: string,
  section: IntakeSection,
  answers: Record<string, unknown>,
  nextSection?: IntakeSection,
): Promise<GraphQLResponse<{ saveIntakeSection: IntakeData }>> {
  return patient.gql<{ saveIntakeSection: IntakeData }>(SAVE, {
    input: { patientId, section, answers: JSON.stringify(answers), nextSection },
  });
}

export function submitIntake(patient: TestClient, patientId: string) {
  return patient.gql<{ submitIntake: IntakeData }>(SUBMIT, { patientId });
}

export async function myIntake(patient: TestClient): Promise<IntakeData> {
  return dataOf(await patient.gql<{ myIntake: IntakeData }>(MINE)).myIntake;
}

/** Saves each section given, in order, then submits; answers the submitted intake. */
export async function submittedIntake(
  patient: TestClient,
  patientId: string,
  sections: Partial<Record<IntakeSection, Record<string, unknown>>>,
): Promise<IntakeData> {
  for (const [section, answers] of Object.entries(sections)) {
    dataOf(await saveIntakeSection(patient, patientId, section as IntakeSection, answers));
  }
  return dataOf(await submitIntake(patient, patientId)).submitIntake;
}
