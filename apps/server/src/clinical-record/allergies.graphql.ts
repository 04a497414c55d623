import type { AllergyListRow } from './allergies.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const AllergyRef = builder.objectRef<AllergyListRow>('Allergy').implement({
  description: "A structured allergy of a patient's record, beside the free-text allergies (decision 062).",
  fields: (t) => ({
    id: t.id({ resolve: (a) => a.allergy.id }),
    patientId: t.id({ resolve: (a) => a.allergy.patientId }),
    substance: t.string({ resolve: (a) => a.allergy.substance }),
    reaction: t.string({ nullable: true, resolve: (a) => a.allergy.reaction ?? null }),
    severity: t.string({ description: 'mild, moderate, severe or unknown', resolve: (a) => a.allergy.severity }),
    category: t.string({
      nullable: true,
      description: 'medication, food, environment or other',
      resolve: (a) => a.allergy.category,
    }),
    notedDate: t.string({ nullable: true, resolve: (a) => a.allergy.notedDate }),
    status: t.string({ description: 'active or removed', resolve: (a) => a.allergy.status }),
    source: t.string({
      description: 'clinician, or patient: reported by the patient in an accepted intake (decision 067).',
      resolve: (a) => a.allergy.source,
    }),
    createdByName: t.string({ resolve: (a) => a.createdByName }),
    createdAt: t.string({ resolve: (a) => a.allergy.createdAt.toISOString() }),
    removedByName: t.string({ nullable: true, resolve: (a) => a.removedByName }),
    removedAt: t.string({ nullable: true, resolve: (a) => a.allergy.removedAt?.toISOString() ?? null }),
    removalReason: t.string({ nullable: true, resolve: (a) => a.allergy.removalReason ?? null }),
  }),
});

const AddAllergyInput = builder.inputType('AddAllergyInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    substance: t.string({ required: true }),
    reaction: t.string(),
    severity: t.string({ required: true }),
    category: t.string(),
    notedDate: t.string(),
  }),
});

const RemoveAllergyInput = builder.inputType('RemoveAllergyInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    reason: t.string({ description: 'Why it is removed (kept with the entry).' }),
  }),
});

builder.queryFields((t) => ({
  patientAllergies: t.field({
    type: [AllergyRef],
    description: "A patient's structured allergies: active ones first (severe at the top), then removed ones.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.allergies.list(callerOf(ctx, 'patientAllergies'), String(args.patientId)),
  }),
}));

builder.mutationFields((t) => ({
  addAllergy: t.field({
    type: AllergyRef,
    args: { input: t.arg({ type: AddAllergyInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.allergies.add(callerOf(ctx, 'addAllergy'), { ...args.input }),
  }),
  removeAllergy: t.field({
    type: AllergyRef,
    args: { input: t.arg({ type: RemoveAllergyInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.allergies.remove(callerOf(ctx, 'removeAllergy'), { ...args.input }),
  }),
}));
