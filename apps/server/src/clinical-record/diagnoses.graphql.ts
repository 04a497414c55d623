import type { Icd10Code } from '@telehealth/shared/icd10cm';
import type { DiagnosisListRow, DiagnosisRevisionListRow } from './diagnoses.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const DiagnosisRef = builder.objectRef<DiagnosisListRow>('Diagnosis').implement({
  description: "An entry of a patient's problem list: an ICD-10-CM code with its status (decision 062).",
  fields: (t) => ({
    id: t.id({ resolve: (d) => d.diagnosis.id }),
    patientId: t.id({ resolve: (d) => d.diagnosis.patientId }),
    code: t.string({ description: 'The ICD-10-CM code, with its dot (F32.9).', resolve: (d) => d.diagnosis.code }),
    title: t.string({
      description: "The list's official title, or the provider's for a code off the list.",
      resolve: (d) => d.diagnosis.title,
    }),
    listed: t.boolean({
      description: "Whether the code is in the product's ICD-10-CM list (off the list: shown with a warning).",
      resolve: (d) => d.diagnosis.listed,
    }),
    status: t.string({ description: 'active, in-remission, resolved or rule-out', resolve: (d) => d.diagnosis.status }),
    onsetDate: t.string({ nullable: true, resolve: (d) => d.diagnosis.onsetDate }),
    primary: t.boolean({ resolve: (d) => d.diagnosis.primary }),
    comment: t.string({ nullable: true, resolve: (d) => d.diagnosis.comment ?? null }),
    version: t.int({ resolve: (d) => d.diagnosis.version }),
    createdByName: t.string({ resolve: (d) => d.createdByName }),
    createdAt: t.string({ resolve: (d) => d.diagnosis.createdAt.toISOString() }),
    updatedByName: t.string({ resolve: (d) => d.updatedByName }),
    updatedAt: t.string({ resolve: (d) => d.diagnosis.updatedAt.toISOString() }),
  }),
});

const DiagnosisRevisionRef = builder.objectRef<DiagnosisRevisionListRow>('DiagnosisRevision').implement({
  description: 'One version of a problem-list entry, as it was written.',
  fields: (t) => ({
    version: t.int({ resolve: (r) => r.revision.version }),
    status: t.string({ resolve: (r) => r.revision.status }),
    onsetDate: t.string({ nullable: true, resolve: (r) => r.revision.onsetDate }),
    primary: t.boolean({ resolve: (r) => r.revision.primary }),
    comment: t.string({ nullable: true, resolve: (r) => r.revision.comment ?? null }),
    changedByName: t.string({ resolve: (r) => r.changedByName }),
    changedAt: t.string({ resolve: (r) => r.revision.changedAt.toISOString() }),
  }),
});

const Icd10CodeRef = builder.objectRef<Icd10Code>('Icd10Code').implement({
  description: "A code of the product's ICD-10-CM list with its official title.",
  fields: (t) => ({ code: t.exposeString('code'), title: t.exposeString('title') }),
});

const AddDiagnosisInput = builder.inputType('AddDiagnosisInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    code: t.string({ required: true }),
    title: t.string({ description: 'Only for a code that is not in the list.' }),
    status: t.string({ required: true }),
    onsetDate: t.string(),
    primary: t.boolean(),
    comment: t.string(),
  }),
});

const UpdateDiagnosisInput = builder.inputType('UpdateDiagnosisInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    status: t.string({ required: true }),
    onsetDate: t.string(),
    primary: t.boolean(),
    comment: t.string(),
  }),
});

builder.queryFields((t) => ({
  patientDiagnoses: t.field({
    type: [DiagnosisRef],
    description: "A patient's problem list: current problems first, the primary one at the top.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.diagnoses.list(callerOf(ctx, 'patientDiagnoses'), String(args.patientId)),
  }),
  diagnosisHistory: t.field({
    type: [DiagnosisRevisionRef],
    description: 'Every version of one problem-list entry, newest first.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.diagnoses.history(callerOf(ctx, 'diagnosisHistory'), String(args.id)),
  }),
  diagnosisCodes: t.field({
    type: [Icd10CodeRef],
    description: "Codes of the product's ICD-10-CM list whose code starts with, or whose title holds, the search.",
    args: { search: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.diagnoses.searchCodes(callerOf(ctx, 'diagnosisCodes'), args.search),
  }),
}));

builder.mutationFields((t) => ({
  addDiagnosis: t.field({
    type: DiagnosisRef,
    args: { input: t.arg({ type: AddDiagnosisInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.diagnoses.add(callerOf(ctx, 'addDiagnosis'), { ...args.input }),
  }),
  updateDiagnosis: t.field({
    type: DiagnosisRef,
    args: { input: t.arg({ type: UpdateDiagnosisInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.diagnoses.update(callerOf(ctx, 'updateDiagnosis'), { ...args.input }),
  }),
}));
