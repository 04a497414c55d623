import type { LedgerEntryView, PatientLedgerView } from './ledger.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const LedgerEntryRef = builder.objectRef<LedgerEntryView>('LedgerEntry').implement({
  description: "An entry of a patient's ledger, signed by its effect on what they owe, in cents. Never changed.",
  fields: (t) => ({
    id: t.id({ resolve: (e) => e.entry.id }),
    kind: t.string({ description: 'charge, payment, adjustment or reversal', resolve: (e) => e.entry.kind }),
    amountCents: t.int({ resolve: (e) => e.entry.amountCents }),
    entryDate: t.string({ resolve: (e) => e.entry.entryDate }),
    method: t.string({ nullable: true, resolve: (e) => e.entry.method }),
    reference: t.string({ nullable: true, resolve: (e) => e.entry.reference }),
    reason: t.string({ nullable: true, resolve: (e) => e.entry.reason }),
    reversesId: t.id({ nullable: true, resolve: (e) => e.entry.reversesId }),
    reversedById: t.id({ nullable: true, resolve: (e) => e.reversedById }),
    appointmentId: t.id({ nullable: true, resolve: (e) => e.entry.appointmentId }),
    code: t.string({ nullable: true, description: "A charge's service code.", resolve: (e) => e.code }),
    modifiers: t.stringList({ resolve: (e) => e.modifiers }),
    enteredByName: t.string({ resolve: (e) => e.enteredByName }),
    enteredAt: t.string({ resolve: (e) => e.entry.enteredAt.toISOString() }),
  }),
});

const PatientLedgerRef = builder.objectRef<PatientLedgerView>('PatientLedger').implement({
  description: "A patient's ledger, oldest first, and what they owe (negative: a credit).",
  fields: (t) => ({
    patientId: t.id({ resolve: (l) => l.patientId }),
    balanceCents: t.exposeInt('balanceCents'),
    entries: t.field({ type: [LedgerEntryRef], resolve: (l) => l.entries }),
  }),
});

const PaymentInput = builder.inputType('PaymentInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    amountCents: t.int({ required: true }),
    method: t.string({ required: true }),
    receivedOn: t.string({ required: true }),
    reference: t.string(),
    appointmentId: t.id(),
  }),
});

const AdjustmentInput = builder.inputType('AdjustmentInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    amountCents: t.int({ required: true }),
    direction: t.string({ required: true, description: 'decrease or increase' }),
    reason: t.string({ required: true }),
    appointmentId: t.id(),
  }),
});

const ReversalInput = builder.inputType('ReversalInput', {
  fields: (t) => ({ entryId: t.id({ required: true }), reason: t.string({ required: true }) }),
});

const plain = (input: object): unknown => JSON.parse(JSON.stringify(input));

builder.queryFields((t) => ({
  patientLedger: t.field({
    type: PatientLedgerRef,
    description: "The patient's ledger and balance (billing:read).",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.ledger.ledger(callerOf(ctx, 'patientLedger'), String(args.patientId)),
  }),
}));

builder.mutationFields((t) => ({
  recordPayment: t.field({
    type: LedgerEntryRef,
    args: { input: t.arg({ type: PaymentInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.ledger.recordPayment(callerOf(ctx, 'recordPayment'), plain(args.input)),
  }),
  recordAdjustment: t.field({
    type: LedgerEntryRef,
    args: { input: t.arg({ type: AdjustmentInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.ledger.recordAdjustment(callerOf(ctx, 'recordAdjustment'), plain(args.input)),
  }),
  reverseLedgerEntry: t.field({
    type: LedgerEntryRef,
    args: { input: t.arg({ type: ReversalInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.ledger.reverse(callerOf(ctx, 'reverseLedgerEntry'), plain(args.input)),
  }),
}));
