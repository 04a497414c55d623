import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LEDGER_ENTRY_KINDS,
  PAYMENT_METHODS,
  PLACES_OF_SERVICE,
  type ReversalInput,
  type VisitCodingInputSchema,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import type { AdjustmentFormData, PaymentFormData } from './billing-forms.ts';

export const billingQueryKeys = {
  all: ['billing'] as const,
  coding: (appointmentId: string) => ['billing', 'coding', appointmentId] as const,
  ledger: (patientId: string) => ['billing', 'ledger', patientId] as const,
};

const CodedServiceSchema = z.object({
  feeItemId: z.string(),
  code: z.string(),
  shortName: z.string(),
  addOn: z.boolean(),
  units: z.number(),
  modifiers: z.array(z.string()),
  diagnosisPointers: z.array(z.number()),
  unitFeeCents: z.number(),
});

const FeeItemSchema = z.object({
  id: z.string(),
  code: z.string(),
  shortName: z.string(),
  feeCents: z.number(),
  addOn: z.boolean(),
});
export type CodingFeeItem = z.infer<typeof FeeItemSchema>;

const VisitCodingSchema = z.object({
  appointmentId: z.string(),
  patientId: z.string(),
  appointmentType: z.enum(['in-person', 'video']),
  codable: z.boolean(),
  notCodableReason: z.string().nullable(),
  proposal: z.object({ placeOfService: z.enum(PLACES_OF_SERVICE), modifiers: z.array(z.string()) }),
  problems: z.array(z.object({ code: z.string(), title: z.string() })),
  feeItems: z.array(FeeItemSchema),
  current: z
    .object({
      version: z.number(),
      placeOfService: z.enum(PLACES_OF_SERVICE),
      diagnosisCodes: z.array(z.string()),
      services: z.array(CodedServiceSchema),
      codedByName: z.string(),
      codedAt: z.string(),
    })
    .nullable(),
});
export type VisitCoding = z.infer<typeof VisitCodingSchema>;

const CODING_FIELDS = `appointmentId patientId appointmentType codable notCodableReason
  proposal { placeOfService modifiers } problems { code title } feeItems { id code shortName feeCents addOn }
  current { version placeOfService diagnosisCodes codedByName codedAt
    services { feeItemId code shortName addOn units modifiers diagnosisPointers unitFeeCents } }`;

const LedgerEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  amountCents: z.number(),
  entryDate: z.string(),
  method: z.enum(PAYMENT_METHODS).nullable(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  reversesId: z.string().nullable(),
  reversedById: z.string().nullable(),
  appointmentId: z.string().nullable(),
  code: z.string().nullable(),
  modifiers: z.array(z.string()),
  enteredByName: z.string(),
  enteredAt: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

const LedgerSchema = z.object({
  patientId: z.string(),
  balanceCents: z.number(),
  entries: z.array(LedgerEntrySchema),
});
export type PatientLedger = z.infer<typeof LedgerSchema>;

const ENTRY_FIELDS = `id kind amountCents entryDate method reference reason reversesId reversedById appointmentId
  code modifiers enteredByName enteredAt`;

/** A visit's coding, what is proposed and what may be chosen (the server audits each read). */
export function useVisitCoding(appointmentId: string) {
  return useQuery({
    queryKey: billingQueryKeys.coding(appointmentId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query VisitCoding($appointmentId: ID!) { visitCoding(appointmentId: $appointmentId) { ${CODING_FIELDS} } }`,
          z.object({ visitCoding: VisitCodingSchema }),
          { appointmentId },
          { signal },
        )
      ).visitCoding,
    retry: false,
  });
}

export function useCodeVisit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: z.output<typeof VisitCodingInputSchema>) =>
      (
        await graphqlRequest(
          `mutation CodeVisit($input: VisitCodingInput!) { codeVisit(input: $input) { ${CODING_FIELDS} } }`,
          z.object({ codeVisit: VisitCodingSchema }),
          { input },
        )
      ).codeVisit,
    onSuccess: (coded) => {
      queryClient.setQueryData(billingQueryKeys.coding(coded.appointmentId), coded);
      return queryClient.invalidateQueries({ queryKey: billingQueryKeys.ledger(coded.patientId) });
    },
  });
}

/** The patient's ledger and balance (the server audits each read). */
export function usePatientLedger(patientId: string) {
  return useQuery({
    queryKey: billingQueryKeys.ledger(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientLedger($patientId: ID!) { patientLedger(patientId: $patientId) {
            patientId balanceCents entries { ${ENTRY_FIELDS} } } }`,
          z.object({ patientLedger: LedgerSchema }),
          { patientId },
          { signal },
        )
      ).patientLedger,
  });
}

/** The ledger's three writes, each one whole document (the tests and the load bench read them by name). */
const RECORD_PAYMENT = `mutation RecordPayment($input: PaymentInput!) { recordPayment(input: $input) { ${ENTRY_FIELDS} } }`;
const RECORD_ADJUSTMENT = `mutation RecordAdjustment($input: AdjustmentInput!) { recordAdjustment(input: $input) { ${ENTRY_FIELDS} } }`;
const REVERSE_LEDGER_ENTRY = `mutation ReverseLedgerEntry($input: ReversalInput!) { reverseLedgerEntry(input: $input) { ${ENTRY_FIELDS} } }`;

/** After a write to a patient's ledger: that ledger (or every one, when the patient is not known) is read again. */
function useLedgerChanged() {
  const queryClient = useQueryClient();
  return (patientId: string | undefined) =>
    queryClient.invalidateQueries({
      queryKey: patientId ? billingQueryKeys.ledger(patientId) : ['billing', 'ledger'],
    });
}

export function useRecordPayment() {
  const changed = useLedgerChanged();
  return useMutation({
    mutationFn: async (input: PaymentFormData) =>
      (await graphqlRequest(RECORD_PAYMENT, z.object({ recordPayment: LedgerEntrySchema }), { input })).recordPayment,
    onSuccess: (_entry, input) => changed(input.patientId),
  });
}

export function useRecordAdjustment() {
  const changed = useLedgerChanged();
  return useMutation({
    mutationFn: async (input: AdjustmentFormData) =>
      (await graphqlRequest(RECORD_ADJUSTMENT, z.object({ recordAdjustment: LedgerEntrySchema }), { input }))
        .recordAdjustment,
    onSuccess: (_entry, input) => changed(input.patientId),
  });
}

export function useReverseLedgerEntry() {
  const changed = useLedgerChanged();
  return useMutation({
    mutationFn: async (input: ReversalInput) =>
      (await graphqlRequest(REVERSE_LEDGER_ENTRY, z.object({ reverseLedgerEntry: LedgerEntrySchema }), { input }))
        .reverseLedgerEntry,
    onSuccess: () => changed(undefined),
  });
}
