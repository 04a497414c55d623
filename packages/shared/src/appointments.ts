import { messageSection } from './field-messages.ts';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { OptionalBooleanSchema, RecordIdSchema, textSchema } from './text.ts';

/*
 * Appointments (decision 023): the specification's fields and constants, the statuses and the one table of
 * their transitions, and the schemas that both the scheduling form and the server check. A date and a time are
 * always the practice's (PRACTICE_TIME_ZONE): the server turns them into instants with `zonedInstant`, and the
 * browser shows instants back in the practice's zone with `practiceDateTime`.
 */

/**
 * The specification's grid: start times every 30 minutes from 08:00 to 17:30. Only the default now: the times
 * offered come from the provider's working hours in the practice's step (`slotStartTimes`, decision 045); with
 * the default week and step they are these.
 */
export const APPOINTMENT_TIMES: readonly string[] = Array.from({ length: 20 }, (_, i) => {
  const minutes = 8 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});
export const APPOINTMENT_DURATIONS = [15, 30, 45, 60, 90] as const;
export type AppointmentDuration = (typeof APPOINTMENT_DURATIONS)[number];
export const DEFAULT_APPOINTMENT_DURATION: AppointmentDuration = 30;

export const APPOINTMENT_TYPES = ['in-person', 'video'] as const;
export type AppointmentType = (typeof APPOINTMENT_TYPES)[number];
export const DEFAULT_APPOINTMENT_TYPE: AppointmentType = 'in-person';

export const APPOINTMENT_PRIORITIES = ['normal', 'high', 'urgent'] as const;
export type AppointmentPriority = (typeof APPOINTMENT_PRIORITIES)[number];

export const DEFAULT_PRACTICE_TIME_ZONE = 'America/New_York';

/**
 * scheduled: booked by staff; pending: requested, waiting for the practice to confirm; then confirmed,
 * checked-in, in-progress and completed; or cancelled (with who cancelled it, CANCELLATION_KINDS) or no-show.
 */
export const APPOINTMENT_STATUSES = [
  'scheduled',
  'pending',
  'confirmed',
  'checked-in',
  'in-progress',
  'completed',
  'cancelled',
  'no-show',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Why a cancelled appointment was cancelled: by the patient, by the provider (or practice), or late. */
export const CANCELLATION_KINDS = ['patient', 'provider', 'late'] as const;
export type CancellationKind = (typeof CANCELLATION_KINDS)[number];

/**
 * The statuses that hold their time: the database's exclusion constraints keep two of them from overlapping for
 * one provider or one patient (migration 0009 lists the same statuses; a test compares them).
 */
export const SLOT_HOLDING_STATUSES = [
  'scheduled',
  'pending',
  'confirmed',
  'checked-in',
  'in-progress',
  'completed',
] as const satisfies readonly AppointmentStatus[];

export function holdsSlot(status: AppointmentStatus): boolean {
  return (SLOT_HOLDING_STATUSES as readonly string[]).includes(status);
}

/** Statuses of a visit that is over whatever its scheduled end says (a visit ended early, a no-show). */
export const ENDED_STATUSES = ['completed', 'no-show'] as const satisfies readonly AppointmentStatus[];

/**
 * Whether an appointment belongs under Past rather than Upcoming: its time is over, or it has ended (completed,
 * no-show) before its scheduled end, even before its scheduled start (issue 25). Cancelled ones are each list's
 * own choice.
 */
export function isPastAppointment(appointment: { status: string; endsAt: string }, now: number): boolean {
  return (
    new Date(appointment.endsAt).getTime() < now || (ENDED_STATUSES as readonly string[]).includes(appointment.status)
  );
}

/**
 * Every allowed change of status, from → to. Anything else is refused ('An appointment that is {{from}} cannot
 * become {{to}}'). Cancelling goes through cancelAppointment (it needs a reason); it is listed here all the same
 * so that one table answers every question about transitions.
 */
export const APPOINTMENT_TRANSITIONS: Readonly<Record<AppointmentStatus, readonly AppointmentStatus[]>> = {
  scheduled: ['confirmed', 'checked-in', 'in-progress', 'completed', 'cancelled', 'no-show'],
  pending: ['confirmed', 'cancelled'],
  confirmed: ['checked-in', 'in-progress', 'completed', 'cancelled', 'no-show'],
  // A patient waiting (a video visit's waiting room checks them in) can still have the visit cancelled.
  'checked-in': ['in-progress', 'completed', 'cancelled', 'no-show'],
  'in-progress': ['completed'],
  completed: [],
  cancelled: [],
  'no-show': [],
};

export function canTransition(from: AppointmentStatus, to: AppointmentStatus): boolean {
  return APPOINTMENT_TRANSITIONS[from].includes(to);
}

/** Statuses whose date and time may still be moved (a reschedule). */
export function canReschedule(status: AppointmentStatus): boolean {
  return status === 'scheduled' || status === 'pending' || status === 'confirmed';
}

export const RECURRENCE_FREQUENCIES = ['weekly', 'biweekly', 'monthly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];
/** A series reaches at most a year past its first visit. */
export const RECURRENCE_MAX_DAYS = 366;
export const RECURRENCE_MAX_COUNT = 53;

/** Which occurrences of a series a change or cancellation applies to. */
export const SERIES_SCOPES = ['this', 'following'] as const;
export type SeriesScope = (typeof SERIES_SCOPES)[number];

export const APPOINTMENT_REASON_MAX = 500;
export const APPOINTMENT_NOTES_MAX = 2000;
export const CANCEL_REASON_MAX = 500;

/** The messages of scheduling, in English; the browser translates them by id (appointmentMessages.*). */
export const APPOINTMENT_MESSAGES = {
  selectPatient: 'Please select a patient',
  selectDate: 'Please select a date',
  selectTime: 'Please select a time',
  provideReason: 'Please provide a reason for the visit',
  dateInPast: 'Please select today or a later date',
  timeInPast: 'This time has already passed; please select a later time',
  timeOffGrid: 'Please select a time from the list',
  offStep: 'Appointments start every {{step}} minutes. Please select a time from the list.',
  durationOffList: 'Please select a duration from the list',
  selectType: 'Please select an appointment type',
  selectPriority: 'Please select a priority',
  selectStatus: 'Please select a status',
  selectProvider: 'Please select a provider',
  invalidDate: 'Please enter a date as YYYY-MM-DD',
  notFound: 'Appointment not found',
  providerBusy: 'The provider already has an appointment at this time. Please choose another time.',
  patientBusy: 'The patient already has an appointment at this time. Please choose another time.',
  outsideWorkingHours:
    "This time is outside the provider's working hours or during their time off. Confirm to book it anyway.",
  outsideWorkingHoursPatient:
    "This time is outside your provider's working hours or during their time off. Please choose one of the times offered.",
  seriesConflicts_one: 'The series could not be scheduled: {{dates}} is not free. Nothing was scheduled.',
  seriesConflicts_other:
    'The series could not be scheduled: {{count}} dates are not free ({{dates}}). Nothing was scheduled.',
  wrongTransition: 'An appointment that is {{from}} cannot become {{to}}.',
  cannotReschedule: 'An appointment that is {{status}} can no longer be moved.',
  cancelReasonRequired: 'Please give a reason for the cancellation',
  notStartedYet: 'This visit has not started yet.',
  providerNotFound: 'Provider not found',
  cannotView: 'Permission denied: Cannot view appointments',
  cannotCreate: 'Permission denied: Cannot schedule appointments',
  cannotUpdate: 'Permission denied: Cannot change appointments',
  cannotManageAvailability: "Permission denied: Cannot change this provider's availability",
  invalidToken: 'Invalid nextToken: start again from the first page.',
  recurrenceEnd: 'Please give a number of visits or an end date for the series',
  recurrenceTooLong: 'A series can reach at most one year ahead',
  workingHoursOverlap: 'Working hours overlap on {{weekday}}',
  workingHoursOrder: 'The end of working hours must come after their start',
  timeOffOrder: 'The last day of time off must not come before the first',
  timeOffNotFound: 'Time off not found',
  failed: 'Failed to schedule appointment. Please try again.',
  waitlistEntryNotFound: 'Waitlist entry not found',
  waitlistRange: 'The last date must not come before the first',
  waitlistWeekdays: 'Please choose at least one day',
  // "Call the practice" only with a number to call (decision 048): the server picks the …Phone text then.
  offerNotFound: 'This offer link is not valid. Please contact the practice.',
  offerNotFoundPhone: 'This offer link is not valid. Please call the practice at {{phone}}.',
  offerGone:
    'Sorry, this time has already been taken or the offer has expired. Please contact the practice for another time.',
  offerGonePhone:
    'Sorry, this time has already been taken or the offer has expired. Please call the practice at {{phone}} for another time.',
  offerClaimed: 'The appointment is yours. You will receive an invitation by e-mail.',
  scheduled: 'Appointment Scheduled!',
  cannotSeeNow: "Permission denied: Only a patient's provider can see them now",
  seeNowProviderBusy:
    'You have another visit from {{from}} to {{to}}. Finish or cancel it before seeing a patient now.',
  seeNowPatientBusy: 'This patient has another visit from {{from}} to {{to}}, so they cannot be seen now.',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const appointmentMessage = messageSection('appointmentMessages', APPOINTMENT_MESSAGES);

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const TIME_PATTERN = /^\d{2}:\d{2}$/;

/** A calendar date (YYYY-MM-DD) that exists. */
export function isCalendarDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

export const AppointmentDateSchema = z
  .string({ error: appointmentMessage.error('selectDate') })
  .trim()
  .min(1, { error: appointmentMessage.error('selectDate') })
  .refine(isCalendarDate, { error: appointmentMessage.error('invalidDate') });

/**
 * A start time: HH:MM of the day on a quarter hour (the finest step a practice may choose, SLOT_STEPS). Whether it
 * is on the practice's step and inside the provider's hours is the server's check (isOfferedStart), since both
 * change without a new schema.
 */
export const AppointmentTimeSchema = z
  .string({ error: appointmentMessage.error('selectTime') })
  .trim()
  .min(1, { error: appointmentMessage.error('selectTime') })
  .refine((value) => TIME_PATTERN.test(value) && Number(value.slice(0, 2)) < 24 && Number(value.slice(3)) % 15 === 0, {
    error: appointmentMessage.error('timeOffGrid'),
  });

/** A time of day on any minute (working hours), HH:MM from 00:00 to 24:00. */
export const ClockTimeSchema = z
  .string({ error: appointmentMessage.error('selectTime') })
  .refine(
    (value) =>
      TIME_PATTERN.test(value) &&
      (value === '24:00' || (Number(value.slice(0, 2)) < 24 && Number(value.slice(3)) < 60)),
    { error: appointmentMessage.error('selectTime') },
  );

export const AppointmentDurationSchema = z
  .number({ error: appointmentMessage.error('durationOffList') })
  .refine((value) => (APPOINTMENT_DURATIONS as readonly number[]).includes(value), {
    error: appointmentMessage.error('durationOffList'),
  });

export const PatientIdSchema = z
  .string({ error: appointmentMessage.error('selectPatient') })
  .trim()
  .min(1, { error: appointmentMessage.error('selectPatient') })
  .pipe(RecordIdSchema);
export const ProviderIdSchema = z
  .string({ error: appointmentMessage.error('selectProvider') })
  .trim()
  .min(1, { error: appointmentMessage.error('selectProvider') })
  .pipe(RecordIdSchema);

export const ReasonSchema = z
  .string({ error: appointmentMessage.error('provideReason') })
  .trim()
  .min(1, { error: appointmentMessage.error('provideReason') })
  .pipe(textSchema({ label: 'Reason for Visit', kind: 'free', max: APPOINTMENT_REASON_MAX }));
const NotesSchema = textSchema({ label: 'Additional Notes', kind: 'free', max: APPOINTMENT_NOTES_MAX });
export const AppointmentTypeSchema = z.enum(APPOINTMENT_TYPES, { error: appointmentMessage.error('selectType') });
const PrioritySchema = z.enum(APPOINTMENT_PRIORITIES, { error: appointmentMessage.error('selectPriority') });

export const RecurrenceInputSchema = z
  .object({
    frequency: z.enum(RECURRENCE_FREQUENCIES, { error: appointmentMessage.error('recurrenceEnd') }),
    count: z
      .number({ error: appointmentMessage.error('recurrenceEnd') })
      .int({ error: appointmentMessage.error('recurrenceEnd') })
      .min(2, { error: appointmentMessage.error('recurrenceEnd') })
      .max(RECURRENCE_MAX_COUNT, { error: appointmentMessage.error('recurrenceTooLong') })
      .nullish(),
    until: AppointmentDateSchema.nullish(),
  })
  .refine((r) => (r.count ?? null) !== null || (r.until ?? null) !== null, {
    ...appointmentMessage.issue('recurrenceEnd'),
    path: ['count'],
  });
export type RecurrenceInput = z.input<typeof RecurrenceInputSchema>;

const appointmentFields = {
  patientId: PatientIdSchema,
  providerId: ProviderIdSchema.nullish(),
  date: AppointmentDateSchema,
  time: AppointmentTimeSchema,
  duration: AppointmentDurationSchema.default(DEFAULT_APPOINTMENT_DURATION),
  appointmentType: AppointmentTypeSchema.default(DEFAULT_APPOINTMENT_TYPE),
  reason: ReasonSchema,
  notes: NotesSchema.nullish(),
  priority: PrioritySchema.default('normal'),
};

/**
 * The scheduling form and createAppointment. `today` is today's date in the practice's zone: a date before it
 * is refused ('Please select a date', the specification's rule "not before today"). `allowOutsideHours` is a
 * staff member's confirmation of the warning about working hours.
 */
export function createAppointmentInputSchema(today: string) {
  return z
    .object({
      ...appointmentFields,
      recurrence: RecurrenceInputSchema.nullish(),
      allowOutsideHours: OptionalBooleanSchema,
    })
    .superRefine((input, ctx) => {
      if (input.date < today)
        ctx.addIssue({ code: 'custom', ...appointmentMessage.issue('dateInPast'), path: ['date'] });
      const until = input.recurrence?.until;
      if (until && until <= input.date) {
        ctx.addIssue({ code: 'custom', ...appointmentMessage.issue('recurrenceEnd'), path: ['recurrence', 'until'] });
      }
    });
}
export type CreateAppointmentInput = z.input<ReturnType<typeof createAppointmentInputSchema>>;
export type CreateAppointmentData = z.output<ReturnType<typeof createAppointmentInputSchema>>;

/** What a visit started with See now is for when the provider gives no reason (decision 046). */
export const SEE_NOW_REASON = 'Unscheduled video visit';

/**
 * seeNow: a provider starts an unscheduled video visit with one of their patients now (decision 046). The time,
 * length and kind are the server's: now, the practice's visit length, video.
 */
export const SeeNowInputSchema = z.object({
  patientId: PatientIdSchema,
  reason: ReasonSchema.nullish(),
});
export type SeeNowInput = z.input<typeof SeeNowInputSchema>;

/** updateAppointment: the id and only the changed fields; a new date, time or duration is a reschedule. */
export function updateAppointmentInputSchema(today: string) {
  return z
    .object({
      id: RecordIdSchema,
      date: AppointmentDateSchema.optional(),
      time: AppointmentTimeSchema.optional(),
      duration: AppointmentDurationSchema.optional(),
      appointmentType: AppointmentTypeSchema.optional(),
      reason: ReasonSchema.optional(),
      notes: NotesSchema.nullish(),
      priority: PrioritySchema.optional(),
      scope: z.enum(SERIES_SCOPES).nullish(),
      allowOutsideHours: OptionalBooleanSchema,
    })
    .superRefine((input, ctx) => {
      if (input.date !== undefined && input.date < today) {
        ctx.addIssue({ code: 'custom', ...appointmentMessage.issue('dateInPast'), path: ['date'] });
      }
    });
}
export type UpdateAppointmentInput = z.input<ReturnType<typeof updateAppointmentInputSchema>>;

export const CancelAppointmentInputSchema = z.object({
  id: RecordIdSchema,
  reason: z
    .string({ error: appointmentMessage.error('cancelReasonRequired') })
    .trim()
    .min(1, { error: appointmentMessage.error('cancelReasonRequired') })
    .pipe(textSchema({ label: 'Reason', kind: 'free', max: CANCEL_REASON_MAX })),
  cancellationKind: z.enum(CANCELLATION_KINDS).nullish(),
  scope: z.enum(SERIES_SCOPES).nullish(),
});
export type CancelAppointmentInput = z.input<typeof CancelAppointmentInputSchema>;

export const SetAppointmentStatusInputSchema = z.object({
  id: RecordIdSchema,
  status: z.enum(APPOINTMENT_STATUSES, { error: appointmentMessage.error('selectStatus') }),
});

/** listAppointments' filter; from and to are practice dates, both included. */
export const AppointmentFilterSchema = z.object({
  from: AppointmentDateSchema.nullish(),
  to: AppointmentDateSchema.nullish(),
  providerId: RecordIdSchema.nullish(),
  patientId: RecordIdSchema.nullish(),
  status: z
    .array(z.enum(APPOINTMENT_STATUSES, { error: appointmentMessage.error('selectStatus') }))
    .max(8)
    .nullish(),
});
export type AppointmentFilter = z.input<typeof AppointmentFilterSchema>;

export const AvailableSlotsInputSchema = z.object({
  providerId: ProviderIdSchema,
  date: AppointmentDateSchema,
  duration: AppointmentDurationSchema.default(DEFAULT_APPOINTMENT_DURATION),
});
