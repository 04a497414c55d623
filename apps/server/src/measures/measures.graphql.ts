import { BAND_KEYS, INSTRUMENTS, itemIdOf, type StoredAnswer } from '@telehealth/shared';
import type { AlertView, MeasureView } from './measures.service.ts';
import { builder } from '../graphql/builder.ts';
import { idempotent } from '../graphql/idempotent.ts';
import { callerOf } from '../graphql/context.ts';

const AnswerRef = builder.objectRef<StoredAnswer>('QuestionnaireAnswer').implement({
  description: "One item's answer: the item, its LOINC code (for export) and the value chosen.",
  fields: (t) => ({
    item: t.string({
      description: "The item's id in the shared definition: its LOINC code, or e.g. pcl5-01 where it has none.",
      resolve: (a) => itemIdOf(a),
    }),
    loinc: t.string({
      nullable: true,
      description: "The item's LOINC code; null where none was verified (decision 063).",
      resolve: (a) => a.loinc,
    }),
    value: t.exposeInt('value'),
  }),
});

const bandsDescription = INSTRUMENTS.map((i) => `${i}: ${BAND_KEYS[i].join(', ')}`).join('; ');

const QuestionnaireRef = builder.objectRef<MeasureView>('Questionnaire').implement({
  description:
    'A rating scale (PHQ-9, GAD-7, PCL-5 or AUDIT-C) sent to a patient; scored by the server once filled in.',
  fields: (t) => ({
    id: t.id({ resolve: (m) => m.row.id }),
    instrument: t.string({ description: `One of ${INSTRUMENTS.join(', ')}`, resolve: (m) => m.row.instrument }),
    status: t.string({ description: 'pending, completed or cancelled', resolve: (m) => m.row.status }),
    patientId: t.id({ resolve: (m) => m.row.patientId }),
    patientName: t.string({ resolve: (m) => m.patientName }),
    appointmentId: t.id({ nullable: true, resolve: (m) => m.row.appointmentId }),
    total: t.int({ nullable: true, resolve: (m) => m.row.total }),
    band: t.string({
      nullable: true,
      description: `The severity band; by instrument: ${bandsDescription}`,
      resolve: (m) => m.row.band,
    }),
    answers: t.field({ type: [AnswerRef], nullable: true, resolve: (m) => m.answers?.items ?? null }),
    difficulty: t.int({ nullable: true, resolve: (m) => m.answers?.difficulty?.value ?? null }),
    createdAt: t.string({ resolve: (m) => m.row.createdAt.toISOString() }),
    completedAt: t.string({ nullable: true, resolve: (m) => m.row.completedAt?.toISOString() ?? null }),
  }),
});

const SubmitResultRef = builder
  .objectRef<{ view: MeasureView; safetyAlert: boolean }>('QuestionnaireSubmitResult')
  .implement({
    fields: (t) => ({
      questionnaire: t.field({ type: QuestionnaireRef, resolve: (r) => r.view }),
      safetyAlert: t.boolean({
        description: "True when the answers started the safety path (the patient's provider is alerted).",
        resolve: (r) => r.safetyAlert,
      }),
    }),
  });

const SafetyAlertRef = builder.objectRef<AlertView>('SafetyAlert').implement({
  description: 'A PHQ-9 with item 9 above 0: open until one of the patient’s providers acknowledges it.',
  fields: (t) => ({
    id: t.id({ resolve: (a) => a.alert.id }),
    patientId: t.id({ resolve: (a) => a.alert.patientId }),
    patientName: t.string({ resolve: (a) => `${a.firstName} ${a.lastName}` }),
    questionnaireId: t.id({ resolve: (a) => a.alert.measureId }),
    total: t.int({ nullable: true, resolve: (a) => a.total }),
    createdAt: t.string({ resolve: (a) => a.alert.createdAt.toISOString() }),
    notifiedAt: t.string({ nullable: true, resolve: (a) => a.alert.notifiedAt?.toISOString() ?? null }),
    escalatedAt: t.string({ nullable: true, resolve: (a) => a.alert.escalatedAt?.toISOString() ?? null }),
    acknowledgedAt: t.string({ nullable: true, resolve: (a) => a.alert.acknowledgedAt?.toISOString() ?? null }),
    acknowledgedByName: t.string({ nullable: true, resolve: (a) => a.acknowledgedByName }),
    acknowledgement: t.string({
      nullable: true,
      description: 'What the provider who acknowledged it did (their note), as they wrote it.',
      resolve: (a) => a.alert.acknowledgement ?? null,
    }),
  }),
});

const SendQuestionnaireInput = builder.inputType('SendQuestionnaireInput', {
  fields: (t) => ({ patientId: t.id({ required: true }), instrument: t.string({ required: true }) }),
});
const QuestionnaireScheduleInput = builder.inputType('QuestionnaireScheduleInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    instrument: t.string({ required: true }),
    beforeEachVisit: t.boolean({ required: true }),
  }),
});
const SubmitQuestionnaireInput = builder.inputType('SubmitQuestionnaireInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    answers: t.intList({
      required: true,
      description: 'One value per item, in order, on the item’s own scale (0-3 or 0-4).',
    }),
    difficulty: t.int({ description: 'The closing difficulty question (PHQ-9, GAD-7); ignored for the others.' }),
  }),
});
const AcknowledgeSafetyAlertInput = builder.inputType('AcknowledgeSafetyAlertInput', {
  fields: (t) => ({ id: t.id({ required: true }), note: t.string({ required: true }) }),
});

builder.queryFields((t) => ({
  myQuestionnaires: t.field({
    type: [QuestionnaireRef],
    description: "The signed-in patient's questionnaires waiting to be filled in.",
    resolve: (_root, _args, ctx) => ctx.measures.pending(callerOf(ctx, 'myQuestionnaires')),
  }),
  questionnaireResults: t.field({
    type: [QuestionnaireRef],
    description: "A patient's completed questionnaires, oldest first.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.measures.results(callerOf(ctx, 'questionnaireResults'), String(args.patientId)),
  }),
  questionnaireSchedules: t.field({
    type: ['String'],
    description: 'The questionnaires that go out before each of the patient’s visits.',
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.measures.schedules(callerOf(ctx, 'questionnaireSchedules'), String(args.patientId)),
  }),
  safetyAlerts: t.field({
    type: [SafetyAlertRef],
    description: "Open safety alerts of the caller's patients (with patientId: that patient's, acknowledged too).",
    args: { patientId: t.arg.id() },
    resolve: (_root, args, ctx) =>
      ctx.measures.alerts(callerOf(ctx, 'safetyAlerts'), {
        patientId: args.patientId ? String(args.patientId) : null,
        includeAcknowledged: !!args.patientId,
      }),
  }),
}));

builder.mutationFields((t) => ({
  sendQuestionnaire: t.field({
    type: QuestionnaireRef,
    args: { input: t.arg({ type: SendQuestionnaireInput, required: true }) },
    resolve: idempotent('sendQuestionnaire', {
      run: (caller, args: { input: object }, ctx) => ctx.measures.send(caller, { ...args.input }),
      replay: (caller, id, _args, ctx) => ctx.measures.sent(caller, id),
    }),
  }),
  setQuestionnaireSchedule: t.field({
    type: ['String'],
    args: { input: t.arg({ type: QuestionnaireScheduleInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.measures.setSchedule(callerOf(ctx, 'setQuestionnaireSchedule'), { ...args.input }),
  }),
  submitQuestionnaire: t.field({
    type: SubmitResultRef,
    args: { input: t.arg({ type: SubmitQuestionnaireInput, required: true }) },
    resolve: idempotent('submitQuestionnaire', {
      run: (caller, args: { input: object }, ctx) => ctx.measures.submit(caller, { ...args.input }),
      replay: (caller, id, _args, ctx) => ctx.measures.submitted(caller, id),
    }),
  }),
  acknowledgeSafetyAlert: t.field({
    type: SafetyAlertRef,
    args: { input: t.arg({ type: AcknowledgeSafetyAlertInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.measures.acknowledge(callerOf(ctx, 'acknowledgeSafetyAlert'), { ...args.input }),
  }),
}));
