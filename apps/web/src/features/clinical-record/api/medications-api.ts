import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COMBINATION_RULES,
  DOSE_UNITS,
  DRUG_CLASSES,
  FREQUENCIES,
  MEDICATION_EVENT_KINDS,
  MEDICATION_STATUSES,
  ROUTES,
  type ChangeMedicationData,
  type StartMedicationData,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const medicationQueryKeys = {
  all: ['medications'] as const,
  list: (patientId: string) => ['medications', 'list', patientId] as const,
};

const doseShape = {
  strength: z.string().nullable(),
  doseAmount: z.number().nullable(),
  doseUnit: z.enum(DOSE_UNITS).nullable(),
  route: z.enum(ROUTES).nullable(),
  frequency: z.enum(FREQUENCIES).nullable(),
  asNeeded: z.boolean().nullable(),
  asNeededReason: z.string().nullable(),
};
const DOSE_FIELDS = 'strength doseAmount doseUnit route frequency asNeeded asNeededReason';

const EventSchema = z.object({
  id: z.string(),
  sequence: z.number(),
  kind: z.enum(MEDICATION_EVENT_KINDS),
  effectiveDate: z.string(),
  ...doseShape,
  reason: z.string().nullable(),
  noteId: z.string().nullable(),
  recordedByName: z.string(),
  recordedAt: z.string(),
});
export type MedicationEvent = z.infer<typeof EventSchema>;

const MedicationSchema = z.object({
  id: z.string(),
  patientId: z.string(),
  drugName: z.string(),
  brandName: z.string().nullable(),
  drugClass: z.enum(DRUG_CLASSES).nullable(),
  listed: z.boolean(),
  controlledSchedule: z.string().nullable(),
  form: z.string().nullable(),
  /** clinician, or patient: reported by the patient in an accepted intake (decision 067). */
  source: z.enum(['clinician', 'patient']),
  /** The dose and how often as the patient wrote them (a reported medication without a set dose). */
  reportedDose: z.string().nullable(),
  ...doseShape,
  quantity: z.number().nullable(),
  refills: z.number().nullable(),
  prescriber: z.string().nullable(),
  indicationId: z.string().nullable(),
  indicationCode: z.string().nullable(),
  status: z.enum(MEDICATION_STATUSES),
  startDate: z.string(),
  lastChangeDate: z.string(),
  events: z.array(EventSchema),
});
export type Medication = z.infer<typeof MedicationSchema>;

const WarningSchema = z.object({
  kind: z.enum(['same-class', 'dangerous-combination']),
  drugClass: z.enum(DRUG_CLASSES).nullable(),
  rule: z.enum(COMBINATION_RULES).nullable(),
  medicationIds: z.array(z.string()),
});
export type MedicationWarningView = z.infer<typeof WarningSchema>;

const FIELDS = `id patientId drugName brandName drugClass listed controlledSchedule form source reportedDose ${DOSE_FIELDS} quantity refills
  prescriber indicationId indicationCode status startDate lastChangeDate
  events { id sequence kind effectiveDate ${DOSE_FIELDS} reason noteId recordedByName recordedAt }`;

/** A patient's medications (active first, each with its history) and the class screen's warnings. */
export function usePatientMedications(patientId: string, options: { forPrint?: boolean } = {}) {
  const forPrint = options.forPrint ?? false;
  return useQuery({
    // The printed list is read once more when printed: the server records it as printed (PHI_PRINT).
    queryKey: forPrint ? [...medicationQueryKeys.list(patientId), 'print'] : medicationQueryKeys.list(patientId),
    staleTime: forPrint ? Infinity : undefined,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientMedications($patientId: ID!, $forPrint: Boolean) {
            patientMedications(patientId: $patientId, forPrint: $forPrint) {
            medications { ${FIELDS} } warnings { kind drugClass rule medicationIds } } }`,
          z.object({
            patientMedications: z.object({ medications: z.array(MedicationSchema), warnings: z.array(WarningSchema) }),
          }),
          { patientId, forPrint },
          { signal },
        )
      ).patientMedications,
  });
}

export function useStartMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: StartMedicationData) =>
      (
        await graphqlRequest(
          `mutation StartMedication($input: StartMedicationInput!) { startMedication(input: $input) { ${FIELDS} } }`,
          z.object({ startMedication: MedicationSchema }),
          { input },
        )
      ).startMedication,
    onSuccess: (started) => queryClient.invalidateQueries({ queryKey: medicationQueryKeys.list(started.patientId) }),
  });
}

export function useChangeMedication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ChangeMedicationData) =>
      (
        await graphqlRequest(
          `mutation ChangeMedication($input: ChangeMedicationInput!) { changeMedication(input: $input) { ${FIELDS} } }`,
          z.object({ changeMedication: MedicationSchema }),
          { input },
        )
      ).changeMedication,
    onSuccess: (changed) => queryClient.invalidateQueries({ queryKey: medicationQueryKeys.list(changed.patientId) }),
  });
}
