import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  INTAKE_CARD_PHOTOS_PATH,
  INTAKE_CARD_SIDES,
  INTAKE_DETAIL_FIELDS,
  INTAKE_FIELD_CHOICES,
  INTAKE_SECTIONS,
  INTAKE_STATUSES,
  type IntakeAnswers,
  type IntakeCardSide,
  type IntakeDetailField,
  type IntakeFieldChoice,
  type IntakeSection,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest, type GraphQLErrorEntry } from '../../../lib/graphql.ts';

export const intakeQueryKeys = {
  all: ['intake'] as const,
  mine: ['intake', 'mine'] as const,
  patient: (patientId: string) => ['intake', 'patient', patientId] as const,
};

const IntakeSchema = z.object({
  id: z.string().nullable(),
  patientId: z.string(),
  status: z.enum(INTAKE_STATUSES),
  steps: z.array(z.enum(INTAKE_SECTIONS)),
  currentSection: z.enum(INTAKE_SECTIONS),
  // Every section's answers as JSON; each section's schema checks them when a step is saved.
  answers: z.string().transform((json) => JSON.parse(json) as IntakeAnswers),
  recordDetails: z.array(z.object({ field: z.enum(INTAKE_DETAIL_FIELDS), value: z.string().nullable() })),
  detailChanges: z.array(
    z.object({
      field: z.enum(INTAKE_DETAIL_FIELDS),
      current: z.string().nullable(),
      reported: z.string().nullable(),
      defaultChoice: z.enum(INTAKE_FIELD_CHOICES),
    }),
  ),
  cardPhotos: z.array(
    z.object({ id: z.string(), side: z.enum(INTAKE_CARD_SIDES), mediaType: z.string(), sizeBytes: z.number() }),
  ),
  submittedAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  returnReason: z.string().nullable(),
});
export type Intake = z.infer<typeof IntakeSchema>;

const FIELDS = `id patientId status steps currentSection answers submittedAt acceptedAt returnedAt returnReason
  recordDetails { field value } detailChanges { field current reported defaultChoice }
  cardPhotos { id side mediaType sizeBytes }`;

const AcceptanceSchema = z.object({
  intake: IntakeSchema,
  fieldsUpdated: z.array(z.string()),
  medicationsAdded: z.number(),
  medicationsSkipped: z.array(z.string()),
  allergiesAdded: z.number(),
  allergiesSkipped: z.array(z.string()),
});
export type IntakeAcceptance = z.infer<typeof AcceptanceSchema>;

/** The signed-in patient's intake (the server audits each read). */
export function useMyIntake() {
  return useQuery({
    queryKey: intakeQueryKeys.mine,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyIntake { myIntake { ${FIELDS} } }`,
          z.object({ myIntake: IntakeSchema }),
          {},
          { signal },
        )
      ).myIntake,
  });
}

/** A patient's intake, from the chart. */
export function usePatientIntake(patientId: string) {
  return useQuery({
    queryKey: intakeQueryKeys.patient(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientIntake($patientId: ID!) { patientIntake(patientId: $patientId) { ${FIELDS} } }`,
          z.object({ patientIntake: IntakeSchema }),
          { patientId },
          { signal },
        )
      ).patientIntake,
  });
}

export interface SaveIntakeSection {
  patientId: string;
  section: IntakeSection;
  answers: unknown;
  nextSection: IntakeSection;
}

/** Saves one step (the patient's); the intake as it now is becomes the cached one. */
export function useSaveIntakeSection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ answers, ...input }: SaveIntakeSection) =>
      (
        await graphqlRequest(
          `mutation SaveIntakeSection($input: SaveIntakeSectionInput!) { saveIntakeSection(input: $input) { ${FIELDS} } }`,
          z.object({ saveIntakeSection: IntakeSchema }),
          { input: { ...input, answers: JSON.stringify(answers) } },
        )
      ).saveIntakeSection,
    onSuccess: (intake) => queryClient.setQueryData(intakeQueryKeys.mine, intake),
  });
}

export function useSubmitIntake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patientId: string) =>
      (
        await graphqlRequest(
          `mutation SubmitIntake($patientId: ID!) { submitIntake(patientId: $patientId) { ${FIELDS} } }`,
          z.object({ submitIntake: IntakeSchema }),
          { patientId },
        )
      ).submitIntake,
    onSuccess: (intake) => queryClient.setQueryData(intakeQueryKeys.mine, intake),
  });
}

/** The last step: the baseline PHQ-9 and GAD-7, sent to the patient's questionnaires unless already waiting. */
export function useRequestIntakeQuestionnaires() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patientId: string) =>
      (
        await graphqlRequest(
          'mutation RequestIntakeQuestionnaires($patientId: ID!) { requestIntakeQuestionnaires(patientId: $patientId) }',
          z.object({ requestIntakeQuestionnaires: z.number() }),
          { patientId },
        )
      ).requestIntakeQuestionnaires,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['measures'] }),
  });
}

export interface AcceptIntakeData {
  intakeId: string;
  choices: { field: IntakeDetailField; choice: IntakeFieldChoice }[];
}

export function useAcceptIntake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AcceptIntakeData) =>
      (
        await graphqlRequest(
          `mutation AcceptIntake($input: AcceptIntakeInput!) { acceptIntake(input: $input) {
            intake { ${FIELDS} } fieldsUpdated medicationsAdded medicationsSkipped allergiesAdded allergiesSkipped } }`,
          z.object({ acceptIntake: AcceptanceSchema }),
          { input },
        )
      ).acceptIntake,
    onSuccess: (accepted) => {
      queryClient.setQueryData(intakeQueryKeys.patient(accepted.intake.patientId), accepted.intake);
      // The record changed: the chart's medications, allergies and details read again.
      void queryClient.invalidateQueries({ queryKey: ['medications'] });
      void queryClient.invalidateQueries({ queryKey: ['allergies'] });
      void queryClient.invalidateQueries({ queryKey: ['patients'] });
    },
  });
}

export function useReturnIntake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { intakeId: string; reason: string }) =>
      (
        await graphqlRequest(
          `mutation ReturnIntake($input: ReturnIntakeInput!) { returnIntake(input: $input) { ${FIELDS} } }`,
          z.object({ returnIntake: IntakeSchema }),
          { input },
        )
      ).returnIntake,
    onSuccess: (intake) => queryClient.setQueryData(intakeQueryKeys.patient(intake.patientId), intake),
  });
}

/** Why an upload failed: the server's error entry (said by its message id), or none (the network). */
export class CardPhotoUploadError extends Error {
  readonly entry: GraphQLErrorEntry | null;
  constructor(entry: GraphQLErrorEntry | null) {
    super(entry?.message ?? 'upload failed');
    this.entry = entry;
  }
}

/** Uploads the photo of one side of the insurance card, with the session cookie. */
export async function uploadCardPhoto(side: IntakeCardSide, file: File): Promise<{ id: string }> {
  let response: Response;
  try {
    response = await fetch(`${INTAKE_CARD_PHOTOS_PATH}/${side}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/octet-stream' },
      body: file,
    });
  } catch {
    throw new CardPhotoUploadError(null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 201) return z.object({ id: z.string() }).parse(body);
  const entry = z.object({ errors: z.array(z.custom<GraphQLErrorEntry>()) }).safeParse(body);
  throw new CardPhotoUploadError(entry.success ? (entry.data.errors[0] ?? null) : null);
}

export function cardPhotoUrl(id: string): string {
  return `${INTAKE_CARD_PHOTOS_PATH}/${encodeURIComponent(id)}`;
}
