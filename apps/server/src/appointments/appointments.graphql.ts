import { seesRecordPart, type WorkingHoursInterval } from '@telehealth/shared';
import { practiceDateTime } from './practice-time.ts';
import type { AppointmentView } from './appointments.repository.ts';
import type { PracticeHours } from './appointments.service.ts';
import type { TimeOffRow } from './availability.repository.ts';
import type { SlotState } from './schedule.ts';
import { builder } from '../graphql/builder.ts';
import { plainInput } from '../graphql/plain-input.ts';
import { idempotent } from '../graphql/idempotent.ts';
import { columnsFor, requestedFields } from '../graphql/selection.ts';
import { callerOf, type GraphQLContext } from '../graphql/context.ts';
import { DeletedRecordRef } from '../patients/patients.graphql.ts';

type ChangeRow = Awaited<ReturnType<GraphQLContext['appointments']['history']>>[number];

/**
 * The practice date and time of an appointment, worked out once per row: date and time both ask, one after the
 * other, so the last row's answer is kept (a pure function of the start and the zone, checked both).
 */
let lastPracticeTime: {
  row: AppointmentView;
  zone: string;
  startsAt: Date;
  at: ReturnType<typeof practiceDateTime>;
} | null = null;
function practiceTime(a: AppointmentView, ctx: GraphQLContext) {
  const zone = ctx.appointments.timeZone;
  const last = lastPracticeTime;
  if (last && last.row === a && last.zone === zone && last.startsAt === a.startsAt) return last.at;
  const at = practiceDateTime(a.startsAt, zone);
  lastPracticeTime = { row: a, zone, startsAt: a.startsAt, at };
  return at;
}

const AppointmentChangeRef = builder.objectRef<ChangeRow>('AppointmentChange').implement({
  description:
    'One step of an appointment’s history: who changed what, and when. Never its reason or notes; a patient reads only the fields they can see.',
  fields: (t) => ({
    action: t.exposeString('action', { description: 'created, updated, rescheduled, status or cancelled.' }),
    fromStatus: t.exposeString('fromStatus', { nullable: true }),
    toStatus: t.exposeString('toStatus', { nullable: true }),
    fromStartsAt: t.string({ nullable: true, resolve: (c) => c.fromStartsAt?.toISOString() ?? null }),
    toStartsAt: t.string({ nullable: true, resolve: (c) => c.toStartsAt?.toISOString() ?? null }),
    fields: t.stringList({ nullable: true, resolve: (c) => c.fields ?? null }),
    actorName: t.exposeString('actorName', { nullable: true }),
    at: t.string({ resolve: (c) => c.at.toISOString() }),
  }),
});

export const AppointmentRef = builder.objectRef<AppointmentView>('Appointment').implement({
  description:
    "A visit of a patient with a provider. date and time are the practice's (PRACTICE_TIME_ZONE); startsAt and endsAt are instants. Protected health information.",
  fields: (t) => ({
    id: t.exposeID('id'),
    patient: t.string({
      description: "The patient's name.",
      resolve: (a) => `${a.patientFirstName} ${a.patientLastName}`,
    }),
    patientId: t.exposeID('patientId'),
    providerId: t.exposeID('providerId'),
    providerName: t.string({ resolve: (a) => `${a.providerFirstName} ${a.providerLastName}` }),
    date: t.string({
      description: 'YYYY-MM-DD in the practice’s time zone.',
      resolve: (a, _args, ctx) => practiceTime(a, ctx).date,
    }),
    time: t.string({
      description: 'HH:MM in the practice’s time zone.',
      resolve: (a, _args, ctx) => practiceTime(a, ctx).time,
    }),
    duration: t.exposeInt('duration', { description: 'Minutes.' }),
    // Resolvers for the encrypted text (decrypted when first read; see patients.schema.ts).
    reason: t.string({ resolve: (a) => a.reason }),
    notes: t.string({
      nullable: true,
      description: "The staff's notes; null for a patient reading their own appointment.",
      resolve: (a, _args, ctx) =>
        ctx.session && !seesRecordPart(ctx.session.user.role, 'appointment:staff-notes') ? null : a.notes,
    }),
    appointmentType: t.exposeString('appointmentType', { description: 'in-person or video.' }),
    status: t.exposeString('status'),
    priority: t.exposeString('priority', { description: 'normal, high or urgent.' }),
    videoCallEnabled: t.boolean({ resolve: (a) => a.appointmentType === 'video' }),
    startsAt: t.string({ resolve: (a) => a.startsAt.toISOString() }),
    endsAt: t.string({ resolve: (a) => a.endsAt.toISOString() }),
    timeZone: t.exposeString('timeZone', { description: 'The time zone it was booked in.' }),
    seriesId: t.exposeID('seriesId', { nullable: true }),
    cancellationKind: t.exposeString('cancellationKind', { nullable: true, description: 'patient, provider or late.' }),
    cancelReason: t.string({ nullable: true, resolve: (a) => a.cancelReason }),
    cancelledAt: t.string({ nullable: true, resolve: (a) => a.cancelledAt?.toISOString() ?? null }),
    cancelledBy: t.id({ nullable: true, resolve: (a) => a.cancelledBy }),
    createdBy: t.id({ nullable: true, resolve: (a) => a.createdBy }),
    updatedBy: t.id({ nullable: true, resolve: (a) => a.updatedBy }),
    statusChangedAt: t.string({ resolve: (a) => a.statusChangedAt.toISOString() }),
    statusChangedBy: t.id({ nullable: true, resolve: (a) => a.statusChangedBy }),
    createdAt: t.string({ resolve: (a) => a.createdAt.toISOString() }),
    updatedAt: t.string({ resolve: (a) => a.updatedAt.toISOString() }),
    history: t.field({
      type: [AppointmentChangeRef],
      description: 'Oldest first.',
      resolve: (a, _args, ctx) => ctx.appointments.history(a, { role: ctx.session?.user.role }),
    }),
  }),
});

/** The row keys each Appointment field's resolver reads (a list reads only the columns of the fields asked for). */
const APPOINTMENT_FIELD_KEYS: Readonly<Record<string, readonly (keyof AppointmentView)[]>> = {
  id: ['id'],
  patient: ['patientFirstName', 'patientLastName'],
  patientId: ['patientId'],
  providerId: ['providerId'],
  providerName: ['providerFirstName', 'providerLastName'],
  date: ['startsAt'],
  time: ['startsAt'],
  duration: ['duration'],
  reason: ['reason'],
  notes: ['notes'],
  appointmentType: ['appointmentType'],
  status: ['status'],
  priority: ['priority'],
  videoCallEnabled: ['appointmentType'],
  startsAt: ['startsAt'],
  endsAt: ['endsAt'],
  timeZone: ['timeZone'],
  seriesId: ['seriesId'],
  cancellationKind: ['cancellationKind'],
  cancelReason: ['cancelReason'],
  cancelledAt: ['cancelledAt'],
  cancelledBy: ['cancelledBy'],
  createdBy: ['createdBy'],
  updatedBy: ['updatedBy'],
  statusChangedAt: ['statusChangedAt'],
  statusChangedBy: ['statusChangedBy'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  history: ['id'],
};

const AppointmentListRef = builder
  .objectRef<{ items: AppointmentView[]; nextToken: string | null }>('AppointmentList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [AppointmentRef], resolve: (l) => l.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

export const AppointmentSlotRef = builder
  .objectRef<{ time: string; startsAt: Date; state: SlotState }>('AppointmentSlot')
  .implement({
    fields: (t) => ({
      time: t.exposeString('time', { description: 'HH:MM in the practice’s time zone.' }),
      startsAt: t.string({ resolve: (s) => s.startsAt.toISOString() }),
      available: t.boolean({ resolve: (s) => s.state === 'free' }),
      state: t.exposeString('state', { description: 'free, taken, time-off or past.' }),
    }),
  });

const PracticeHoursRef = builder.objectRef<PracticeHours>('PracticeHours').implement({
  description: 'What the practice’s working hours cover as a whole; no provider is named.',
  fields: (t) => ({
    slotStepMinutes: t.exposeInt('slotStepMinutes', { description: 'Start times are this many minutes apart.' }),
    earliestStart: t.exposeString('earliestStart', { nullable: true, description: 'HH:MM, practice time.' }),
    latestEnd: t.exposeString('latestEnd', { nullable: true, description: 'HH:MM, practice time.' }),
    preferredTimes: t.exposeStringList('preferredTimes', {
      description: 'The preferred appointment times (morning, afternoon, evening, weekends, flexible) covered.',
    }),
  }),
});

builder.queryField('practiceHours', (t) =>
  t.field({
    type: PracticeHoursRef,
    description:
      'Public. What the practice’s working hours cover (the access-request form’s preferred times, the calendar’s range).',
    resolve: (_root, _args, ctx) => ctx.appointments.practiceHours(),
  }),
);

const WorkingHoursRef = builder.objectRef<WorkingHoursInterval>('WorkingHours').implement({
  fields: (t) => ({
    weekday: t.exposeInt('weekday', { description: 'ISO weekday: 1 Monday ... 7 Sunday.' }),
    startTime: t.exposeString('startTime'),
    endTime: t.exposeString('endTime'),
  }),
});

const TimeOffRef = builder.objectRef<TimeOffRow>('TimeOff').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    providerId: t.exposeID('providerId'),
    startDate: t.exposeString('startDate'),
    endDate: t.exposeString('endDate'),
    label: t.exposeString('label', { nullable: true }),
  }),
});

const ProviderAvailabilityRef = builder
  .objectRef<{ providerId: string; custom: boolean; workingHours: WorkingHoursInterval[]; timeOff: TimeOffRow[] }>(
    'ProviderAvailability',
  )
  .implement({
    fields: (t) => ({
      providerId: t.exposeID('providerId'),
      custom: t.exposeBoolean('custom', { description: "False while the provider has the practice's default week." }),
      workingHours: t.field({ type: [WorkingHoursRef], resolve: (a) => a.workingHours }),
      timeOff: t.field({ type: [TimeOffRef], description: 'From 30 days ago on.', resolve: (a) => a.timeOff }),
    }),
  });

const RecurrenceInput = builder.inputType('RecurrenceInput', {
  fields: (t) => ({
    frequency: t.string({ description: 'weekly, biweekly or monthly.' }),
    count: t.int({ description: 'How many visits in all (2 to 53).' }),
    until: t.string({ description: 'The last possible date, YYYY-MM-DD (at most a year ahead).' }),
  }),
});

const CreateAppointmentInput = builder.inputType('CreateAppointmentInput', {
  fields: (t) => ({
    patientId: t.id(),
    providerId: t.id({ description: "Default: the calling provider's own." }),
    date: t.string({ description: 'YYYY-MM-DD in the practice’s time zone.' }),
    time: t.string({ description: 'HH:MM, every 30 minutes from 08:00 to 17:30.' }),
    duration: t.int({ description: '15, 30, 45, 60 or 90 minutes (default 30).' }),
    appointmentType: t.string({ description: 'in-person (default) or video.' }),
    reason: t.string(),
    notes: t.string(),
    priority: t.string({ description: 'normal (default), high or urgent.' }),
    recurrence: t.field({ type: RecurrenceInput }),
    allowOutsideHours: t.boolean({
      description: "Staff's confirmation of a time outside the provider's working hours (OUTSIDE_WORKING_HOURS).",
    }),
  }),
});

const SeeNowInput = builder.inputType('SeeNowInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    reason: t.string({ description: 'Default: "Unscheduled video visit".' }),
  }),
});

const UpdateAppointmentInput = builder.inputType('UpdateAppointmentInput', {
  description: 'The id and only the changed fields. A new date, time or duration is a reschedule.',
  fields: (t) => ({
    id: t.id({ required: true }),
    date: t.string(),
    time: t.string(),
    duration: t.int(),
    appointmentType: t.string(),
    reason: t.string(),
    notes: t.string(),
    priority: t.string(),
    scope: t.string({ description: 'In a series: this (default) or following.' }),
    allowOutsideHours: t.boolean(),
  }),
});

const CancelAppointmentInput = builder.inputType('CancelAppointmentInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    reason: t.string(),
    cancellationKind: t.string({ description: 'patient, provider or late (default: by who cancels).' }),
    scope: t.string({ description: 'In a series: this (default) or following.' }),
  }),
});

const SetAppointmentStatusInput = builder.inputType('SetAppointmentStatusInput', {
  fields: (t) => ({ id: t.id({ required: true }), status: t.string() }),
});

const AppointmentFilterInput = builder.inputType('AppointmentFilterInput', {
  fields: (t) => ({
    from: t.string({ description: 'First practice date, YYYY-MM-DD (included).' }),
    to: t.string({ description: 'Last practice date, YYYY-MM-DD (included).' }),
    providerId: t.id(),
    patientId: t.id(),
    status: t.stringList(),
  }),
});

const WorkingHoursInput = builder.inputType('WorkingHoursInput', {
  fields: (t) => ({ weekday: t.int(), startTime: t.string(), endTime: t.string() }),
});

const SetWorkingHoursInput = builder.inputType('SetWorkingHoursInput', {
  fields: (t) => ({
    providerId: t.id(),
    intervals: t.field({ type: [WorkingHoursInput] }),
  }),
});

const AddTimeOffInput = builder.inputType('AddTimeOffInput', {
  fields: (t) => ({ providerId: t.id(), startDate: t.string(), endDate: t.string(), label: t.string() }),
});

const first = <T>(rows: T[]): T => rows[0]!;

builder.queryFields((t) => ({
  listAppointments: t.field({
    type: AppointmentListRef,
    args: {
      filter: t.arg({ type: AppointmentFilterInput }),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx, info) =>
      ctx.appointments.list(
        callerOf(ctx, 'listAppointments'),
        { ...args, filter: args.filter ? plainInput(args.filter) : null },
        { columns: columnsFor(requestedFields(info, ['items']), APPOINTMENT_FIELD_KEYS) },
      ),
  }),
  getAppointment: t.field({
    type: AppointmentRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.appointments.get(callerOf(ctx, 'getAppointment'), String(args.id)),
  }),
  availableSlots: t.field({
    type: [AppointmentSlotRef],
    description:
      'The start times a provider’s working hours offer on a date, in the practice’s step (decision 045), each free or why not.',
    args: { providerId: t.arg.id({ required: true }), date: t.arg.string({ required: true }), duration: t.arg.int() },
    resolve: (_root, args, ctx) =>
      ctx.appointments.availableSlots(callerOf(ctx, 'availableSlots'), {
        providerId: String(args.providerId),
        date: args.date,
        ...(args.duration != null ? { duration: args.duration } : {}),
      }),
  }),
  providerAvailability: t.field({
    type: ProviderAvailabilityRef,
    args: { providerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.appointments.availability(callerOf(ctx, 'providerAvailability'), String(args.providerId)),
  }),
}));

builder.mutationFields((t) => ({
  createAppointment: t.field({
    type: AppointmentRef,
    description:
      'Books a visit, or a series (recurrence): every occurrence is checked before any is saved. Answers the first.',
    args: { input: t.arg({ type: CreateAppointmentInput, required: true }) },
    resolve: idempotent('createAppointment', {
      run: async (caller, args: { input: object }, ctx) =>
        first(await ctx.appointments.create(caller, plainInput(args.input))),
      replay: (caller, id, _args, ctx) => ctx.appointments.get(caller, id),
    }),
  }),
  seeNow: t.field({
    type: AppointmentRef,
    description:
      "A provider's unscheduled video visit with one of their own patients, starting now for the practice's visit length (decision 046). Answers the appointment; its room is /video-call/start/{id}. PROVIDER_BUSY or PATIENT_BUSY when either has another visit then.",
    args: { input: t.arg({ type: SeeNowInput, required: true }) },
    resolve: idempotent('seeNow', {
      run: (caller, args: { input: object }, ctx) => ctx.appointments.seeNow(caller, plainInput(args.input)),
      replay: (caller, id, _args, ctx) => ctx.appointments.get(caller, id),
    }),
  }),
  updateAppointment: t.field({
    type: AppointmentRef,
    args: { input: t.arg({ type: UpdateAppointmentInput, required: true }) },
    resolve: async (_root, args, ctx) =>
      first(await ctx.appointments.update(callerOf(ctx, 'updateAppointment'), plainInput(args.input))),
  }),
  cancelAppointment: t.field({
    type: AppointmentRef,
    args: { input: t.arg({ type: CancelAppointmentInput, required: true }) },
    resolve: async (_root, args, ctx) =>
      first(await ctx.appointments.cancel(callerOf(ctx, 'cancelAppointment'), plainInput(args.input))),
  }),
  setAppointmentStatus: t.field({
    type: AppointmentRef,
    args: { input: t.arg({ type: SetAppointmentStatusInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.appointments.setStatus(callerOf(ctx, 'setAppointmentStatus'), plainInput(args.input)),
  }),
  setWorkingHours: t.field({
    type: ProviderAvailabilityRef,
    description: 'Replaces the weekly hours (an empty list: no hours at all).',
    args: { input: t.arg({ type: SetWorkingHoursInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.appointments.setWorkingHours(callerOf(ctx, 'setWorkingHours'), plainInput(args.input)),
  }),
  addTimeOff: t.field({
    type: TimeOffRef,
    args: { input: t.arg({ type: AddTimeOffInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.appointments.addTimeOff(callerOf(ctx, 'addTimeOff'), plainInput(args.input)),
  }),
  removeTimeOff: t.field({
    type: DeletedRecordRef,
    args: { providerId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.appointments.removeTimeOff(callerOf(ctx, 'removeTimeOff'), {
        providerId: String(args.providerId),
        id: String(args.id),
      }),
  }),
}));
