import type { TreatmentGoal, TreatmentPlanProblem } from '@telehealth/shared';
import type { TreatmentPlanDue, TreatmentPlanVersionRecord } from './treatment-plans.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const TreatmentPlanProblemRef = builder.objectRef<TreatmentPlanProblem>('TreatmentPlanProblem').implement({
  description: 'A problem the plan addresses: a diagnosis of the patient, with its code and title when written.',
  fields: (t) => ({
    diagnosisId: t.id({ resolve: (p) => p.diagnosisId }),
    code: t.exposeString('code'),
    title: t.exposeString('title'),
  }),
});

const TreatmentGoalRef = builder.objectRef<TreatmentGoal>('TreatmentGoal').implement({
  description: 'A measurable goal: what, and optionally a questionnaire total to get under by a date.',
  fields: (t) => ({
    description: t.exposeString('description'),
    instrument: t.string({ nullable: true, description: 'phq9 or gad7', resolve: (g) => g.instrument }),
    targetBelow: t.int({ nullable: true, resolve: (g) => g.targetBelow }),
    targetDate: t.string({ nullable: true, resolve: (g) => g.targetDate }),
  }),
});

const TreatmentPlanVersionRef = builder.objectRef<TreatmentPlanVersionRecord>('TreatmentPlanVersion').implement({
  description: "A version of a patient's treatment plan: a draft until its provider signs it, then never changed.",
  fields: (t) => ({
    id: t.id({ resolve: (v) => v.row.id }),
    planId: t.id({ resolve: (v) => v.row.planId }),
    patientId: t.id({ resolve: (v) => v.patientId }),
    version: t.int({ resolve: (v) => v.row.version }),
    status: t.string({ description: 'active, completed or discontinued', resolve: (v) => v.row.status }),
    signed: t.boolean({ resolve: (v) => v.row.signedAt !== null }),
    problems: t.field({ type: [TreatmentPlanProblemRef], resolve: (v) => v.content.problems }),
    goals: t.field({ type: [TreatmentGoalRef], resolve: (v) => v.content.goals }),
    interventions: t.stringList({ resolve: (v) => v.content.interventions }),
    targetDate: t.string({ nullable: true, resolve: (v) => v.row.targetDate }),
    reviewDate: t.string({ resolve: (v) => v.row.reviewDate }),
    createdByName: t.string({ resolve: (v) => v.createdByName }),
    createdAt: t.string({ resolve: (v) => v.row.createdAt.toISOString() }),
    updatedByName: t.string({ resolve: (v) => v.updatedByName }),
    updatedAt: t.string({ resolve: (v) => v.row.updatedAt.toISOString() }),
    signedByName: t.string({ nullable: true, resolve: (v) => v.signedByName }),
    signedAt: t.string({ nullable: true, resolve: (v) => v.row.signedAt?.toISOString() ?? null }),
    acknowledgedAt: t.string({
      nullable: true,
      description: 'When the patient said they had read this version.',
      resolve: (v) => v.row.acknowledgedAt?.toISOString() ?? null,
    }),
  }),
});

const TreatmentPlanDueRef = builder.objectRef<TreatmentPlanDue>('TreatmentPlanDue').implement({
  description: "A plan of the provider's patient whose review date has come.",
  fields: (t) => ({
    planId: t.id({ resolve: (d) => d.planId }),
    versionId: t.id({ resolve: (d) => d.versionId }),
    version: t.exposeInt('version'),
    patientId: t.id({ resolve: (d) => d.patientId }),
    patientName: t.exposeString('patientName'),
    reviewDate: t.exposeString('reviewDate'),
  }),
});

const TreatmentGoalInput = builder.inputType('TreatmentGoalInput', {
  fields: (t) => ({
    description: t.string({ required: true }),
    instrument: t.string(),
    targetBelow: t.int(),
    targetDate: t.string(),
  }),
});

const SaveTreatmentPlanInput = builder.inputType('SaveTreatmentPlanInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    status: t.string({ required: true }),
    problemIds: t.idList(),
    goals: t.field({ type: [TreatmentGoalInput] }),
    interventions: t.stringList(),
    targetDate: t.string(),
    reviewDate: t.string(),
  }),
});

const SignTreatmentPlanInput = builder.inputType('SignTreatmentPlanInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    password: t.string(),
    code: t.string({ description: 'A current code of the authenticator app, instead of the password.' }),
  }),
});

/** The arguments as plain data (GraphQL's input objects have no prototype; the nested ones too). */
const plain = (input: object): unknown => JSON.parse(JSON.stringify(input));

builder.queryFields((t) => ({
  treatmentPlan: t.field({
    type: TreatmentPlanVersionRef,
    nullable: true,
    description: "The patient's current treatment plan (a draft included for their provider; the patient: signed).",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.treatmentPlans.current(callerOf(ctx, 'treatmentPlan'), String(args.patientId)),
  }),
  treatmentPlanHistory: t.field({
    type: [TreatmentPlanVersionRef],
    description: 'Every version of a treatment plan, newest first (the patient: the signed ones).',
    args: { planId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.treatmentPlans.history(callerOf(ctx, 'treatmentPlanHistory'), String(args.planId)),
  }),
  treatmentPlansDueForReview: t.field({
    type: [TreatmentPlanDueRef],
    description: "The provider's patients' plans whose review date has come, the most overdue first.",
    resolve: (_root, _args, ctx) => ctx.treatmentPlans.dueForReview(callerOf(ctx, 'treatmentPlansDueForReview')),
  }),
}));

builder.mutationFields((t) => ({
  saveTreatmentPlan: t.field({
    type: TreatmentPlanVersionRef,
    args: { input: t.arg({ type: SaveTreatmentPlanInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.treatmentPlans.save(callerOf(ctx, 'saveTreatmentPlan'), plain(args.input)),
  }),
  signTreatmentPlan: t.field({
    type: TreatmentPlanVersionRef,
    args: { input: t.arg({ type: SignTreatmentPlanInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.treatmentPlans.sign(callerOf(ctx, 'signTreatmentPlan'), ctx.meta, plain(args.input)),
  }),
  acknowledgeTreatmentPlan: t.field({
    type: TreatmentPlanVersionRef,
    description: 'The patient says they have read the latest signed version of their plan.',
    args: { versionId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.treatmentPlans.acknowledge(callerOf(ctx, 'acknowledgeTreatmentPlan'), String(args.versionId)),
  }),
}));
