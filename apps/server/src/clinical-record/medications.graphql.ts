import type { MedicationWarning } from '@telehealth/shared';
import type { MedicationList, MedicationListRow } from './medications.service.ts';
import type { MedicationEventListRow } from './medications.repository.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

/** The dose fields a medication and its events share (the structured sig). */
interface DoseSource {
  strength: string | null;
  doseAmount: number | null;
  doseUnit: string | null;
  route: string | null;
  frequency: string | null;
  asNeeded: boolean | null;
  asNeededReason: string | null;
}

const MedicationEventRef = builder.objectRef<MedicationEventListRow>('MedicationEvent').implement({
  description: "One dated change in a medication's history: started, dose-changed, held, resumed or stopped.",
  fields: (t) => ({
    id: t.id({ resolve: (e) => e.event.id }),
    sequence: t.int({ resolve: (e) => e.event.sequence }),
    kind: t.string({ resolve: (e) => e.event.kind }),
    effectiveDate: t.string({ resolve: (e) => e.event.effectiveDate }),
    ...doseFields(t, (e) => e.event),
    reason: t.string({ nullable: true, resolve: (e) => e.event.reason ?? null }),
    noteId: t.id({ nullable: true, resolve: (e) => e.event.noteId }),
    recordedByName: t.string({ resolve: (e) => e.recordedByName }),
    recordedAt: t.string({ resolve: (e) => e.event.recordedAt.toISOString() }),
  }),
});

type SchemaTypes = typeof builder.$inferSchemaTypes;

function doseFields<T>(t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, T>, of: (source: T) => DoseSource) {
  return {
    strength: t.string({ nullable: true, resolve: (s) => of(s).strength }),
    doseAmount: t.float({ nullable: true, resolve: (s) => of(s).doseAmount }),
    doseUnit: t.string({ nullable: true, resolve: (s) => of(s).doseUnit }),
    route: t.string({ nullable: true, resolve: (s) => of(s).route }),
    frequency: t.string({ nullable: true, resolve: (s) => of(s).frequency }),
    asNeeded: t.boolean({ nullable: true, resolve: (s) => of(s).asNeeded }),
    asNeededReason: t.string({ nullable: true, resolve: (s) => of(s).asNeededReason ?? null }),
  };
}

const MedicationRef = builder.objectRef<MedicationListRow>('Medication').implement({
  description: "A patient's medication with its current dose and status, and its history (decision 062).",
  fields: (t) => ({
    id: t.id({ resolve: (m) => m.medication.id }),
    patientId: t.id({ resolve: (m) => m.medication.patientId }),
    drugName: t.string({ resolve: (m) => m.medication.drugName }),
    brandName: t.string({ nullable: true, resolve: (m) => m.medication.brandName ?? null }),
    drugClass: t.string({ nullable: true, resolve: (m) => m.medication.drugClass }),
    listed: t.boolean({
      description: "Whether the drug is in the product's catalogue.",
      resolve: (m) => m.medication.listed,
    }),
    controlledSchedule: t.string({ nullable: true, resolve: (m) => m.medication.controlledSchedule }),
    source: t.string({
      description: 'clinician, or patient: reported by the patient in an accepted intake (decision 067).',
      resolve: (m) => m.medication.source,
    }),
    reportedDose: t.string({
      nullable: true,
      description: 'The dose and how often as the patient wrote them (a reported medication without a set dose).',
      resolve: (m) => m.medication.reportedDose ?? null,
    }),
    form: t.string({ nullable: true, resolve: (m) => m.medication.form }),
    ...doseFields(t, (m) => m.medication),
    quantity: t.int({ nullable: true, resolve: (m) => m.medication.quantity }),
    refills: t.int({ nullable: true, resolve: (m) => m.medication.refills }),
    prescriber: t.string({ nullable: true, resolve: (m) => m.medication.prescriber ?? null }),
    indicationId: t.id({ nullable: true, resolve: (m) => m.medication.indicationId }),
    indicationCode: t.string({ nullable: true, resolve: (m) => m.indicationCode }),
    status: t.string({ description: 'active, held or stopped', resolve: (m) => m.medication.status }),
    startDate: t.string({ resolve: (m) => m.medication.startDate }),
    lastChangeDate: t.string({ resolve: (m) => m.medication.lastChangeDate }),
    events: t.field({ type: [MedicationEventRef], resolve: (m) => m.events }),
  }),
});

const MedicationWarningRef = builder.objectRef<MedicationWarning>('MedicationWarning').implement({
  description: 'A class-level warning on the active medications: not an interaction database (decision 061).',
  fields: (t) => ({
    kind: t.string({ description: 'same-class or dangerous-combination', resolve: (w) => w.kind }),
    drugClass: t.string({ nullable: true, resolve: (w) => (w.kind === 'same-class' ? w.drugClass : null) }),
    rule: t.string({ nullable: true, resolve: (w) => (w.kind === 'dangerous-combination' ? w.rule : null) }),
    medicationIds: t.idList({ resolve: (w) => w.ids }),
  }),
});

const MedicationListRef = builder.objectRef<MedicationList>('MedicationList').implement({
  fields: (t) => ({
    medications: t.field({ type: [MedicationRef], resolve: (l) => l.medications }),
    warnings: t.field({ type: [MedicationWarningRef], resolve: (l) => l.warnings }),
  }),
});

const DoseInput = builder.inputType('MedicationDoseInput', {
  fields: (t) => ({
    strength: t.string(),
    doseAmount: t.float({ required: true }),
    doseUnit: t.string({ required: true }),
    route: t.string({ required: true }),
    frequency: t.string({ required: true }),
    asNeeded: t.boolean(),
    asNeededReason: t.string(),
  }),
});

const StartMedicationInput = builder.inputType('StartMedicationInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    drugName: t.string({ required: true }),
    brandName: t.string(),
    drugClass: t.string(),
    form: t.string(),
    strength: t.string(),
    doseAmount: t.float({ required: true }),
    doseUnit: t.string({ required: true }),
    route: t.string({ required: true }),
    frequency: t.string({ required: true }),
    asNeeded: t.boolean(),
    asNeededReason: t.string(),
    quantity: t.int(),
    refills: t.int(),
    prescriber: t.string(),
    indicationId: t.id(),
    startDate: t.string(),
    reason: t.string(),
    noteId: t.id(),
  }),
});

const ChangeMedicationInput = builder.inputType('ChangeMedicationInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    kind: t.string({ required: true, description: 'dose-changed, held, resumed or stopped' }),
    effectiveDate: t.string(),
    reason: t.string({ required: true }),
    noteId: t.id({ description: 'The note the change was made from, if any.' }),
    dose: t.field({ type: DoseInput, description: 'The new dose, for dose-changed.' }),
  }),
});

builder.queryFields((t) => ({
  patientMedications: t.field({
    type: MedicationListRef,
    description: "A patient's medications, active first, with the class screen's warnings.",
    args: {
      patientId: t.arg.id({ required: true }),
      forPrint: t.arg.boolean({
        description: 'True when the list is read to be printed: recorded as PHI_PRINT instead of a read.',
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.medications.list(callerOf(ctx, 'patientMedications'), String(args.patientId), {
        purpose: args.forPrint ? 'print' : 'view',
      }),
  }),
}));

builder.mutationFields((t) => ({
  startMedication: t.field({
    type: MedicationRef,
    args: { input: t.arg({ type: StartMedicationInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.medications.start(callerOf(ctx, 'startMedication'), { ...args.input }),
  }),
  changeMedication: t.field({
    type: MedicationRef,
    args: { input: t.arg({ type: ChangeMedicationInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.medications.change(callerOf(ctx, 'changeMedication'), {
        ...args.input,
        dose: args.input.dose ? { ...args.input.dose } : args.input.dose,
      }),
  }),
}));
