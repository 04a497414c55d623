import type { FeeItemRow, VisitCodingLineRow } from './billing.repository.ts';
import type { VisitCodingView } from './visit-coding.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

type CurrentCoding = NonNullable<VisitCodingView['current']>;

const CodedServiceRef = builder.objectRef<VisitCodingLineRow>('CodedService').implement({
  description: "A service of a visit's coding, with the code, short name and unit fee as they were when coded.",
  fields: (t) => ({
    feeItemId: t.id({ resolve: (line) => line.feeItemId }),
    code: t.exposeString('code'),
    shortName: t.exposeString('shortName'),
    addOn: t.exposeBoolean('addOn'),
    units: t.exposeInt('units'),
    modifiers: t.exposeStringList('modifiers'),
    diagnosisPointers: t.exposeIntList('diagnosisPointers', { description: '1-based: A = 1 to D = 4.' }),
    unitFeeCents: t.exposeInt('unitFeeCents'),
  }),
});

const VisitCodingVersionRef = builder.objectRef<CurrentCoding>('VisitCodingVersion').implement({
  description: "A version of a visit's coding: where, the diagnoses in claim order, the services.",
  fields: (t) => ({
    id: t.id({ resolve: (c) => c.coding.id }),
    version: t.int({ resolve: (c) => c.coding.version }),
    placeOfService: t.string({ resolve: (c) => c.coding.placeOfService }),
    diagnosisCodes: t.stringList({ resolve: (c) => c.coding.diagnosisCodes }),
    serviceDate: t.string({ resolve: (c) => c.coding.serviceDate }),
    services: t.field({ type: [CodedServiceRef], resolve: (c) => c.lines }),
    codedByName: t.string({ resolve: (c) => c.codedByName }),
    codedAt: t.string({ resolve: (c) => c.coding.codedAt.toISOString() }),
  }),
});

const CodingProposalRef = builder.objectRef<VisitCodingView['proposal']>('CodingProposal').implement({
  description: 'What the form proposes for the visit by its type: a video visit 10 and modifier 95, in person 11.',
  fields: (t) => ({
    placeOfService: t.exposeString('placeOfService'),
    modifiers: t.exposeStringList('modifiers'),
  }),
});

const CodingProblemRef = builder.objectRef<VisitCodingView['problems'][number]>('CodingProblem').implement({
  description: "A diagnosis of the patient's problem list the visit may be coded with.",
  fields: (t) => ({ code: t.exposeString('code'), title: t.exposeString('title') }),
});

const CodingFeeItemRef = builder.objectRef<FeeItemRow>('CodingFeeItem').implement({
  description: 'An active service of the fee schedule a visit may be coded with.',
  fields: (t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code'),
    shortName: t.exposeString('shortName'),
    feeCents: t.exposeInt('feeCents'),
    addOn: t.exposeBoolean('addOn'),
  }),
});

const VisitCodingRef = builder.objectRef<VisitCodingView>('VisitCoding').implement({
  description: "A visit's coding as the form reads it: the current version (or null), the proposal, the choices.",
  fields: (t) => ({
    appointmentId: t.id({ resolve: (v) => v.appointmentId }),
    patientId: t.id({ resolve: (v) => v.patientId }),
    appointmentType: t.exposeString('appointmentType'),
    current: t.field({ type: VisitCodingVersionRef, nullable: true, resolve: (v) => v.current }),
    proposal: t.field({ type: CodingProposalRef, resolve: (v) => v.proposal }),
    problems: t.field({ type: [CodingProblemRef], resolve: (v) => v.problems }),
    feeItems: t.field({ type: [CodingFeeItemRef], resolve: (v) => v.feeItems }),
    codable: t.exposeBoolean('codable'),
    notCodableReason: t.string({
      nullable: true,
      description: 'Why it may not be coded yet: billingMessages.visitNotReady or visitNotReadySigned.',
      resolve: (v) => v.notCodableReason,
    }),
  }),
});

const CodedServiceInput = builder.inputType('CodedServiceInput', {
  fields: (t) => ({
    feeItemId: t.id({ required: true }),
    units: t.int({ required: true }),
    modifiers: t.stringList({ required: true }),
    diagnosisPointers: t.intList({ required: true }),
  }),
});

const VisitCodingInput = builder.inputType('VisitCodingInput', {
  fields: (t) => ({
    appointmentId: t.id({ required: true }),
    placeOfService: t.string({ required: true }),
    diagnosisCodes: t.stringList({ required: true }),
    services: t.field({ type: [CodedServiceInput], required: true }),
    expectedVersion: t.int({ required: true, description: 'The version the form was opened on (0: none yet).' }),
  }),
});

/** The arguments as plain data (GraphQL's input objects have no prototype; the nested ones too). */
const plain = (input: object): unknown => JSON.parse(JSON.stringify(input));

builder.queryFields((t) => ({
  visitCoding: t.field({
    type: VisitCodingRef,
    description: "A visit's coding, what is proposed and what may be chosen (billing:read).",
    args: { appointmentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.visitCoding.get(callerOf(ctx, 'visitCoding'), String(args.appointmentId)),
  }),
}));

builder.mutationFields((t) => ({
  codeVisit: t.field({
    type: VisitCodingRef,
    description: "Codes a completed visit (its next version), reversing the previous version's charges.",
    args: { input: t.arg({ type: VisitCodingInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.visitCoding.code(callerOf(ctx, 'codeVisit'), plain(args.input)),
  }),
}));
