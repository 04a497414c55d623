import type { CardPhotoInfo, IntakeAcceptance, IntakeDetailChange, IntakeView } from './intake.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';
import { badUserInput } from '../errors.ts';

/* The intake packet (decision 067): the patient's own intake in the portal, their provider's review in the chart. */

const IntakeCardPhotoRef = builder.objectRef<CardPhotoInfo>('IntakeCardPhoto').implement({
  description: "A photo of the insurance card's front or back (read at /api/intake/card-photos/:id).",
  fields: (t) => ({
    id: t.id({ resolve: (p) => p.id }),
    side: t.string({ description: 'front or back', resolve: (p) => p.side }),
    mediaType: t.string({ resolve: (p) => p.mediaType }),
    sizeBytes: t.int({ resolve: (p) => p.sizeBytes }),
    createdAt: t.string({ resolve: (p) => p.createdAt.toISOString() }),
  }),
});

const IntakeDetailChangeRef = builder.objectRef<IntakeDetailChange>('IntakeDetailChange').implement({
  description: 'A detail of the patient record that differs from what the patient reported.',
  fields: (t) => ({
    field: t.string({ resolve: (c) => c.field }),
    current: t.string({ nullable: true, resolve: (c) => c.current }),
    reported: t.string({ nullable: true, resolve: (c) => c.reported }),
    defaultChoice: t.string({ description: 'current or reported', resolve: (c) => c.defaultChoice }),
  }),
});

const IntakeRecordDetailRef = builder
  .objectRef<{ field: string; value: string | null }>('IntakeRecordDetail')
  .implement({
    fields: (t) => ({
      field: t.string({ resolve: (d) => d.field }),
      value: t.string({ nullable: true, resolve: (d) => d.value }),
    }),
  });

const IntakeRef = builder.objectRef<IntakeView>('Intake').implement({
  description: "A patient's intake packet (decision 067).",
  fields: (t) => ({
    id: t.id({ nullable: true, description: 'Null while not started.', resolve: (i) => i.id }),
    patientId: t.id({ resolve: (i) => i.patientId }),
    status: t.string({
      description: 'not-started, in-progress, submitted or accepted',
      resolve: (i) => i.status,
    }),
    steps: t.stringList({ description: "The practice's sections, in order.", resolve: (i) => i.steps }),
    currentSection: t.string({ description: 'The step to come back to.', resolve: (i) => i.currentSection }),
    answers: t.string({
      description: "Every section's saved answers as a JSON object by section key (see packages/shared intake.ts).",
      resolve: (i) => JSON.stringify(i.answers),
    }),
    recordDetails: t.field({
      type: [IntakeRecordDetailRef],
      description: "The patient record's details: the details step's starting values.",
      resolve: (i) => Object.entries(i.recordDetails).map(([field, value]) => ({ field, value })),
    }),
    detailChanges: t.field({ type: [IntakeDetailChangeRef], resolve: (i) => i.detailChanges }),
    cardPhotos: t.field({ type: [IntakeCardPhotoRef], resolve: (i) => i.cardPhotos }),
    submittedAt: t.string({ nullable: true, resolve: (i) => i.submittedAt?.toISOString() ?? null }),
    acceptedAt: t.string({ nullable: true, resolve: (i) => i.acceptedAt?.toISOString() ?? null }),
    returnedAt: t.string({ nullable: true, resolve: (i) => i.returnedAt?.toISOString() ?? null }),
    returnReason: t.string({ nullable: true, resolve: (i) => i.returnReason }),
  }),
});

const IntakeAcceptanceRef = builder.objectRef<IntakeAcceptance>('IntakeAcceptance').implement({
  fields: (t) => ({
    intake: t.field({ type: IntakeRef, resolve: (a) => a.intake }),
    fieldsUpdated: t.stringList({ resolve: (a) => a.fieldsUpdated }),
    medicationsAdded: t.int({ resolve: (a) => a.medicationsAdded }),
    medicationsSkipped: t.stringList({
      description: 'Reported medications already on the list, as the patient named them.',
      resolve: (a) => a.medicationsSkipped,
    }),
    allergiesAdded: t.int({ resolve: (a) => a.allergiesAdded }),
    allergiesSkipped: t.stringList({ resolve: (a) => a.allergiesSkipped }),
  }),
});

const SaveIntakeSectionInput = builder.inputType('SaveIntakeSectionInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    section: t.string({ required: true }),
    answers: t.string({ required: true, description: "The section's answers as a JSON object." }),
    nextSection: t.string({ description: 'The step the patient goes on to.' }),
  }),
});

const IntakeFieldChoiceInput = builder.inputType('IntakeFieldChoiceInput', {
  fields: (t) => ({ field: t.string({ required: true }), choice: t.string({ required: true }) }),
});

const AcceptIntakeInput = builder.inputType('AcceptIntakeInput', {
  fields: (t) => ({
    intakeId: t.id({ required: true }),
    choices: t.field({
      type: [IntakeFieldChoiceInput],
      description: 'Per differing detail: current or reported (left out: fill an empty field, keep a filled one).',
    }),
  }),
});

const ReturnIntakeInput = builder.inputType('ReturnIntakeInput', {
  fields: (t) => ({ intakeId: t.id({ required: true }), reason: t.string({ required: true }) }),
});

/** The answers' JSON, parsed (the section's schema checks them in the service). */
function answersOf(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Answered below, as any refused input.
  }
  throw badUserInput('intakeMessages.sectionUnknown');
}

builder.queryFields((t) => ({
  myIntake: t.field({
    type: IntakeRef,
    description: "The signed-in patient's intake, started or not. Audited.",
    resolve: (_root, _args, ctx) => ctx.intake.mine(callerOf(ctx, 'myIntake')),
  }),
  patientIntake: t.field({
    type: IntakeRef,
    description: "A patient's intake, from the chart: their provider, an emergency grant (read only). Audited.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.intake.forPatient(callerOf(ctx, 'patientIntake'), String(args.patientId)),
  }),
}));

builder.mutationFields((t) => ({
  saveIntakeSection: t.field({
    type: IntakeRef,
    description: "Saves one section of the signed-in patient's intake and the step to come back to.",
    args: { input: t.arg({ type: SaveIntakeSectionInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.intake.saveSection(callerOf(ctx, 'saveIntakeSection'), {
        patientId: String(args.input.patientId),
        section: args.input.section,
        answers: answersOf(args.input.answers),
        nextSection: args.input.nextSection,
      }),
  }),
  requestIntakeQuestionnaires: t.int({
    description: "The intake's last step: sends the baseline PHQ-9 and GAD-7 not already pending. Answers how many.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.intake.requestQuestionnaires(callerOf(ctx, 'requestIntakeQuestionnaires'), {
        patientId: String(args.patientId),
      }),
  }),
  submitIntake: t.field({
    type: IntakeRef,
    description: "Submits the signed-in patient's intake to their provider.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.intake.submit(callerOf(ctx, 'submitIntake'), { patientId: String(args.patientId) }),
  }),
  acceptIntake: t.field({
    type: IntakeAcceptanceRef,
    description: 'The provider accepts a submitted intake into the record (one transaction). Audited.',
    args: { input: t.arg({ type: AcceptIntakeInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.intake.accept(callerOf(ctx, 'acceptIntake'), {
        intakeId: String(args.input.intakeId),
        choices: args.input.choices?.map((c) => ({ ...c })) ?? null,
      }),
  }),
  returnIntake: t.field({
    type: IntakeRef,
    description: 'The provider sends a submitted intake back to the patient with a short reason. Audited.',
    args: { input: t.arg({ type: ReturnIntakeInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.intake.returnToPatient(callerOf(ctx, 'returnIntake'), {
        intakeId: String(args.input.intakeId),
        reason: args.input.reason,
      }),
  }),
}));
