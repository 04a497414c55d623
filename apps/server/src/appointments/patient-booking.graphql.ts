import type { BookingPolicy } from '@telehealth/shared';
import { AppointmentRef, AppointmentSlotRef } from './appointments.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { plainInput } from '../graphql/plain-input.ts';
import { idempotent } from '../graphql/idempotent.ts';
import { callerOf } from '../graphql/context.ts';

/*
 * A patient books, confirms, cancels and reschedules their own visits (decision 030).
 * Staff keep createAppointment, updateAppointment, cancelAppointment and setAppointmentStatus.
 */

const BookingPolicyRef = builder
  .objectRef<BookingPolicy & { clinicPhone: string | null; joinEarlyMinutes: number; joinLateMinutes: number }>(
    'BookingPolicy',
  )
  .implement({
    description: "The practice's rules for patients' own bookings, and what the portal needs to show them.",
    fields: (t) => ({
      changeWindowHours: t.exposeInt('changeWindowHours', {
        description: 'A visit can be cancelled or rescheduled online until this many hours before it.',
      }),
      minNoticeHours: t.exposeInt('minNoticeHours', {
        description: 'A booking starts at least this many hours ahead.',
      }),
      horizonDays: t.exposeInt('horizonDays', { description: 'A booking starts at most this many days ahead.' }),
      appointmentTypes: t.exposeStringList('appointmentTypes', { description: 'in-person and/or video.' }),
      mode: t.exposeString('mode', { description: 'instant (confirmed at once) or request (pending).' }),
      duration: t.exposeInt('duration', { description: 'Minutes of a visit a patient books.' }),
      clinicPhone: t.exposeString('clinicPhone', { nullable: true, description: 'CLINIC_PHONE, to call instead.' }),
      joinEarlyMinutes: t.exposeInt('joinEarlyMinutes', { description: 'A video visit opens this early.' }),
      joinLateMinutes: t.exposeInt('joinLateMinutes', { description: 'And stays open this long after its end.' }),
    }),
  });

const BookAppointmentInput = builder.inputType('BookAppointmentInput', {
  fields: (t) => ({
    providerId: t.id({ description: "Default and only choice: the patient's own provider." }),
    appointmentType: t.string({ description: 'in-person or video, as the policy allows.' }),
    date: t.string({ description: 'YYYY-MM-DD in the practice’s time zone.' }),
    time: t.string({ description: 'HH:MM from the grid.' }),
    reason: t.string(),
  }),
});

const RescheduleMyAppointmentInput = builder.inputType('RescheduleMyAppointmentInput', {
  fields: (t) => ({ id: t.id({ required: true }), date: t.string(), time: t.string() }),
});

const CancelMyAppointmentInput = builder.inputType('CancelMyAppointmentInput', {
  fields: (t) => ({ id: t.id({ required: true }), reason: t.string({ description: 'Optional.' }) }),
});

builder.queryFields((t) => ({
  bookingPolicy: t.field({
    type: BookingPolicyRef,
    description: "The practice's booking policy for patients (signed in).",
    resolve: async (_root, _args, ctx) => {
      callerOf(ctx, 'bookingPolicy');
      return {
        ...(await ctx.appointments.bookingPolicy()),
        clinicPhone: ctx.config.settings.current().clinicPhone,
        joinEarlyMinutes: ctx.config.video.joinEarlyMinutes,
        joinLateMinutes: ctx.config.video.joinLateMinutes,
      };
    },
  }),
  myAvailableSlots: t.field({
    type: [AppointmentSlotRef],
    description: "A patient's bookable times on a date with their own provider (minimum notice and horizon applied).",
    args: { date: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.appointments.ownSlots(callerOf(ctx, 'myAvailableSlots'), { date: args.date }),
  }),
}));

builder.mutationFields((t) => ({
  bookAppointment: t.field({
    type: AppointmentRef,
    description: 'A patient books a visit with their own provider: confirmed, or pending in request mode.',
    args: { input: t.arg({ type: BookAppointmentInput, required: true }) },
    resolve: idempotent('bookAppointment', {
      run: (caller, args: { input: object }, ctx) => ctx.appointments.bookOwn(caller, plainInput(args.input)),
      replay: (caller, id, _args, ctx) => ctx.appointments.get(caller, id),
    }),
  }),
  confirmMyAppointment: t.field({
    type: AppointmentRef,
    description: "A patient's “I'll be there” for a visit the practice booked.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.appointments.confirmOwn(callerOf(ctx, 'confirmMyAppointment'), String(args.id)),
  }),
  cancelMyAppointment: t.field({
    type: AppointmentRef,
    description: "A patient cancels their own visit, until the policy's window before it.",
    args: { input: t.arg({ type: CancelMyAppointmentInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.appointments.cancelOwn(callerOf(ctx, 'cancelMyAppointment'), plainInput(args.input)),
  }),
  rescheduleMyAppointment: t.field({
    type: AppointmentRef,
    description: "A patient moves their own visit, until the policy's window before it.",
    args: { input: t.arg({ type: RescheduleMyAppointmentInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.appointments.rescheduleOwn(callerOf(ctx, 'rescheduleMyAppointment'), plainInput(args.input)),
  }),
}));
