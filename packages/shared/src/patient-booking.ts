import { z } from 'zod';
import {
  appointmentMessage,
  APPOINTMENT_TYPES,
  AppointmentDateSchema,
  AppointmentTimeSchema,
  ReasonSchema,
  type AppointmentDuration,
  type AppointmentType,
} from './appointments.ts';
import { addDays } from './practice-dates.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/*
 * Patients booking and changing their own visits from the portal (decision 030): the practice's booking policy,
 * the portal's schemas and the messages of its rules. The server enforces every rule; the browser uses the same
 * functions only to show what is possible.
 */

/** instant: a patient's booking is confirmed at once; request: it is pending until the provider confirms it. */
export const BOOKING_MODES = ['instant', 'request'] as const;
export type BookingMode = (typeof BOOKING_MODES)[number];

/** The practice's rules for patients' own bookings (configuration; issue 16 may move it into settings). */
export interface BookingPolicy {
  /** A visit can be cancelled or rescheduled online until this many hours before it starts. */
  changeWindowHours: number;
  /** A booking must start at least this many hours from now. */
  minNoticeHours: number;
  /** A booking may start at most this many days ahead (counted in practice dates from today). */
  horizonDays: number;
  /** The kinds of visit a patient may book online. */
  appointmentTypes: AppointmentType[];
  mode: BookingMode;
  /** The length of a visit a patient books. */
  duration: AppointmentDuration;
}

export const DEFAULT_BOOKING_POLICY: BookingPolicy = {
  changeWindowHours: 24,
  minNoticeHours: 24,
  horizonDays: 90,
  appointmentTypes: [...APPOINTMENT_TYPES],
  mode: 'instant',
  duration: 30,
};

export const BOOKING_MESSAGES = {
  // "Call the clinic" only with a number to call (decision 048): the server picks the …Phone text then.
  noPatientRecord: 'Your account is not linked to a patient record yet. Please contact the practice to book a visit.',
  noPatientRecordPhone:
    'Your account is not linked to a patient record yet. Please call the clinic at {{phone}} to book a visit.',
  noProvider: 'You have no provider assigned yet. Please contact the practice to book a visit.',
  noProviderPhone: 'You have no provider assigned yet. Please call the clinic at {{phone}} to book a visit.',
  typeNotBookable: 'This kind of visit cannot be booked online. Please choose another or contact the practice.',
  typeNotBookablePhone:
    'This kind of visit cannot be booked online. Please choose another or call the clinic at {{phone}}.',
  tooSoon_one: 'Please choose a time at least {{count}} hour from now.',
  tooSoon_other: 'Please choose a time at least {{count}} hours from now.',
  tooFar_one: 'Visits can be booked at most {{count}} day ahead.',
  tooFar_other: 'Visits can be booked at most {{count}} days ahead.',
  changeWindowClosed_one:
    'Visits can be changed or cancelled online until {{count}} hour before they start. Please contact the practice.',
  changeWindowClosed_other:
    'Visits can be changed or cancelled online until {{count}} hours before they start. Please contact the practice.',
  changeWindowClosedPhone_one:
    'Visits can be changed or cancelled online until {{count}} hour before they start. Please call the clinic at {{phone}}.',
  changeWindowClosedPhone_other:
    'Visits can be changed or cancelled online until {{count}} hours before they start. Please call the clinic at {{phone}}.',
  cannotConfirm: 'Only an upcoming visit booked by the practice can be confirmed.',
  cannotChange: 'This visit can no longer be changed online. Please contact the practice.',
  cannotChangePhone: 'This visit can no longer be changed online. Please call the clinic at {{phone}}.',
} as const;

/** A visit can be changed online (cancelled, rescheduled) until this instant. */
export function changeDeadline(startsAt: Date, policy: Pick<BookingPolicy, 'changeWindowHours'>): Date {
  return new Date(startsAt.getTime() - policy.changeWindowHours * 3_600_000);
}

/** The first instant a booking may start (the minimum notice). */
export function earliestBooking(now: Date, policy: Pick<BookingPolicy, 'minNoticeHours'>): Date {
  return new Date(now.getTime() + policy.minNoticeHours * 3_600_000);
}

/** The last practice date a booking may fall on (the horizon). */
export function lastBookableDate(today: string, policy: Pick<BookingPolicy, 'horizonDays'>): string {
  return addDays(today, policy.horizonDays);
}

const BookingTypeSchema = z.enum(APPOINTMENT_TYPES, { error: appointmentMessage.error('selectType') });

/** bookAppointment: a patient's own visit with their provider. The length comes from the policy. */
export const BookAppointmentInputSchema = z.object({
  /** Default: the patient's own provider (their record's primary provider), the only one they may name. */
  providerId: RecordIdSchema.nullish(),
  appointmentType: BookingTypeSchema,
  date: AppointmentDateSchema,
  time: AppointmentTimeSchema,
  reason: ReasonSchema,
});
export type BookAppointmentInput = z.input<typeof BookAppointmentInputSchema>;

/** rescheduleMyAppointment: a new date and time for a patient's own visit. */
export const RescheduleMyAppointmentInputSchema = z.object({
  id: RecordIdSchema,
  date: AppointmentDateSchema,
  time: AppointmentTimeSchema,
});
export type RescheduleMyAppointmentInput = z.input<typeof RescheduleMyAppointmentInputSchema>;

/** cancelMyAppointment: the reason is optional for a patient. */
export const CancelMyAppointmentInputSchema = z.object({
  id: RecordIdSchema,
  reason: textSchema({ label: 'Reason', kind: 'free', max: 500 }).nullish(),
});
export type CancelMyAppointmentInput = z.input<typeof CancelMyAppointmentInputSchema>;
