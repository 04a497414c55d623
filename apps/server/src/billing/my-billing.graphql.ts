import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';
import type { MyBilling } from './billing-documents.service.ts';

type MyBillingEntry = MyBilling['entries'][number];
type MyBillingVisit = MyBilling['visits'][number];

const MyBillingEntryRef = builder.objectRef<MyBillingEntry>('MyBillingEntry').implement({
  description: "An entry of the patient's own ledger: a charge, a payment, an adjustment or a reversal.",
  fields: (t) => ({
    id: t.id({ resolve: (e) => e.id }),
    date: t.exposeString('date'),
    kind: t.string({ description: 'charge, payment, adjustment or reversal', resolve: (e) => e.kind }),
    code: t.string({ nullable: true, description: "A charge's service code (CPT or HCPCS).", resolve: (e) => e.code }),
    amountCents: t.int({
      description: 'Signed by its effect on what the patient owes.',
      resolve: (e) => e.amountCents,
    }),
  }),
});

const MyBillingVisitRef = builder.objectRef<MyBillingVisit>('MyBillingVisit').implement({
  description: 'A coded visit of the patient: one superbill to download.',
  fields: (t) => ({
    appointmentId: t.id({ resolve: (v) => v.appointmentId }),
    serviceDate: t.exposeString('serviceDate'),
    providerName: t.exposeString('providerName'),
  }),
});

const MyBillingRef = builder.objectRef<MyBilling>('MyBilling').implement({
  description: "The signed-in patient's billing: what they owe, their ledger (newest first) and coded visits.",
  fields: (t) => ({
    patientId: t.id({ resolve: (b) => b.patientId }),
    balanceCents: t.int({ description: 'Negative: a credit.', resolve: (b) => b.balanceCents }),
    entries: t.field({ type: [MyBillingEntryRef], resolve: (b) => b.entries }),
    visits: t.field({ type: [MyBillingVisitRef], resolve: (b) => b.visits }),
  }),
});

builder.queryFields((t) => ({
  myBilling: t.field({
    type: MyBillingRef,
    description: "The signed-in patient's own balance, ledger and coded visits (billing:read own; audited).",
    resolve: (_root, _args, ctx) => ctx.billingDocuments.myBilling(callerOf(ctx, 'myBilling')),
  }),
}));

builder.mutationFields((t) => ({
  sendBillingStatement: t.boolean({
    description:
      'Queues the e-mail telling the patient a statement is ready in the portal (no amount, no health data).',
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.billingDocuments.sendStatement(callerOf(ctx, 'sendBillingStatement'), String(args.patientId)),
  }),
}));
