import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { INSTRUMENTS, type Instrument } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { useSubmissionKey } from '../../../lib/submission-key.ts';
import { useLiveMessages } from '../../../lib/live-channel.ts';

export const measureQueryKeys = {
  all: ['measures'] as const,
  mine: ['measures', 'mine'] as const,
  results: (patientId: string) => ['measures', 'results', patientId] as const,
  schedules: (patientId: string) => ['measures', 'schedules', patientId] as const,
  allAlerts: ['measures', 'alerts'] as const,
  alerts: (patientId: string | null) => ['measures', 'alerts', patientId] as const,
};

const QuestionnaireSchema = z.object({
  id: z.string(),
  instrument: z.enum(INSTRUMENTS),
  status: z.string(),
  total: z.number().nullable(),
  band: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Questionnaire = z.infer<typeof QuestionnaireSchema>;

const FIELDS = 'id instrument status total band createdAt completedAt';

/** A completed questionnaire as the chart reads it: with each item's answer (by item id) and the difficulty. */
const ResultSchema = QuestionnaireSchema.extend({
  answers: z.array(z.object({ item: z.string(), loinc: z.string().nullable(), value: z.number() })).nullable(),
  difficulty: z.number().nullable(),
});
export type QuestionnaireResult = z.infer<typeof ResultSchema>;

/** The signed-in patient's questionnaires waiting to be filled in; a new one appears live. */
export function useMyQuestionnaires(enabled = true) {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'questionnaires-changed')
      void queryClient.invalidateQueries({ queryKey: measureQueryKeys.mine });
  }, enabled);
  return useQuery({
    queryKey: measureQueryKeys.mine,
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyQuestionnaires { myQuestionnaires { ${FIELDS} } }`,
          z.object({ myQuestionnaires: z.array(QuestionnaireSchema) }),
          {},
          { signal },
        )
      ).myQuestionnaires,
  });
}

export function useQuestionnaireResults(patientId: string) {
  return useQuery({
    queryKey: measureQueryKeys.results(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query QuestionnaireResults($patientId: ID!) { questionnaireResults(patientId: $patientId) {
            ${FIELDS} answers { item loinc value } difficulty } }`,
          z.object({ questionnaireResults: z.array(ResultSchema) }),
          { patientId },
          { signal },
        )
      ).questionnaireResults,
  });
}

export function useSubmitQuestionnaire() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: { id: string; answers: number[]; difficulty: number | null }) =>
      submission.send(
        async (idempotencyKey) =>
          (
            await graphqlRequest(
              `mutation SubmitQuestionnaire($input: SubmitQuestionnaireInput!) { submitQuestionnaire(input: $input) {
            safetyAlert questionnaire { ${FIELDS} } } }`,
              z.object({
                submitQuestionnaire: z.object({ safetyAlert: z.boolean(), questionnaire: QuestionnaireSchema }),
              }),
              { input },
              { idempotencyKey },
            )
          ).submitQuestionnaire,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: measureQueryKeys.mine }),
  });
}

export function useSendQuestionnaire() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: { patientId: string; instrument: Instrument }) =>
      submission.send(
        async (idempotencyKey) =>
          (
            await graphqlRequest(
              `mutation SendQuestionnaire($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { ${FIELDS} } }`,
              z.object({ sendQuestionnaire: QuestionnaireSchema }),
              { input },
              { idempotencyKey },
            )
          ).sendQuestionnaire,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: measureQueryKeys.all }),
  });
}

export function useQuestionnaireSchedules(patientId: string) {
  return useQuery({
    queryKey: measureQueryKeys.schedules(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query QuestionnaireSchedules($patientId: ID!) { questionnaireSchedules(patientId: $patientId) }',
          z.object({ questionnaireSchedules: z.array(z.string()) }),
          { patientId },
          { signal },
        )
      ).questionnaireSchedules,
  });
}

export function useSetQuestionnaireSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { patientId: string; instrument: Instrument; beforeEachVisit: boolean }) =>
      (
        await graphqlRequest(
          'mutation SetQuestionnaireSchedule($input: QuestionnaireScheduleInput!) { setQuestionnaireSchedule(input: $input) }',
          z.object({ setQuestionnaireSchedule: z.array(z.string()) }),
          { input },
        )
      ).setQuestionnaireSchedule,
    onSuccess: (schedules, input) => queryClient.setQueryData(measureQueryKeys.schedules(input.patientId), schedules),
  });
}

const AlertSchema = z.object({
  id: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  total: z.number().nullable(),
  createdAt: z.string(),
  notifiedAt: z.string().nullable(),
  escalatedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedByName: z.string().nullable(),
  acknowledgement: z.string().nullable(),
});
export type SafetyAlert = z.infer<typeof AlertSchema>;

const ALERT_FIELDS =
  'id patientId patientName total createdAt notifiedAt escalatedAt acknowledgedAt acknowledgedByName acknowledgement';

/**
 * Safety alerts: the caller's open ones, or one patient's (acknowledged too). A raised or acknowledged alert
 * arrives over the live channel, so the dashboard shows it without a reload.
 */
export function useSafetyAlerts(patientId: string | null = null) {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'safety-alerts-changed')
      void queryClient.invalidateQueries({ queryKey: measureQueryKeys.allAlerts });
  });
  return useQuery({
    queryKey: measureQueryKeys.alerts(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query SafetyAlerts($patientId: ID) { safetyAlerts(patientId: $patientId) { ${ALERT_FIELDS} } }`,
          z.object({ safetyAlerts: z.array(AlertSchema) }),
          { patientId },
          { signal },
        )
      ).safetyAlerts,
  });
}

export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; note: string }) =>
      (
        await graphqlRequest(
          `mutation AcknowledgeSafetyAlert($input: AcknowledgeSafetyAlertInput!) { acknowledgeSafetyAlert(input: $input) { ${ALERT_FIELDS} } }`,
          z.object({ acknowledgeSafetyAlert: AlertSchema }),
          { input },
        )
      ).acknowledgeSafetyAlert,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: measureQueryKeys.allAlerts }),
  });
}
