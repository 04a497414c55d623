import { z } from 'zod';
import {
  appointmentMessage,
  AppointmentDateSchema,
  AppointmentDurationSchema,
  DEFAULT_APPOINTMENT_DURATION,
  DEFAULT_APPOINTMENT_TYPE,
  PatientIdSchema,
  ProviderIdSchema,
  ReasonSchema,
  AppointmentTypeSchema,
} from './appointments.ts';

/*
 * The waiting list (decision 025): the parts of the day a patient can ask for, the offers of a freed slot, and the
 * schema of addToWaitlist.
 */

/** Parts of the day a waitlisted patient can ask for (in the practice's zone). */
export const WAITLIST_TIMES_OF_DAY = ['any', 'morning', 'afternoon'] as const;
export type WaitlistTimeOfDay = (typeof WAITLIST_TIMES_OF_DAY)[number];
/** Morning: a start before 12:00; afternoon: from 12:00. */
export const AFTERNOON_FROM = '12:00';
/** How many waiting patients one freed slot is offered to at once; the first to claim it gets it. */
export const WAITLIST_OFFERS_PER_SLOT = 3;
/** How long an offer's link can be claimed. */
export const WAITLIST_OFFER_VALID_MINUTES = 120;

export const WAITLIST_STATUSES = ['waiting', 'booked', 'removed'] as const;
export const WAITLIST_OFFER_STATUSES = ['open', 'claimed', 'gone'] as const;

/** addToWaitlist: who, with whom, which days and times, between which dates. */
export function addToWaitlistInputSchema(today: string) {
  return z
    .object({
      patientId: PatientIdSchema,
      providerId: ProviderIdSchema.nullish(),
      fromDate: AppointmentDateSchema,
      toDate: AppointmentDateSchema,
      weekdays: z
        .array(z.number().int().min(1).max(7), { error: appointmentMessage.error('waitlistWeekdays') })
        .min(1, { error: appointmentMessage.error('waitlistWeekdays') })
        .max(7)
        .transform((days) => [...new Set(days)].sort()),
      timeOfDay: z.enum(WAITLIST_TIMES_OF_DAY).default('any'),
      duration: AppointmentDurationSchema.default(DEFAULT_APPOINTMENT_DURATION),
      appointmentType: AppointmentTypeSchema.default(DEFAULT_APPOINTMENT_TYPE),
      reason: ReasonSchema,
    })
    .superRefine((input, ctx) => {
      if (input.toDate < input.fromDate) {
        ctx.addIssue({ code: 'custom', ...appointmentMessage.issue('waitlistRange'), path: ['toDate'] });
      }
      if (input.toDate < today) {
        ctx.addIssue({ code: 'custom', ...appointmentMessage.issue('dateInPast'), path: ['toDate'] });
      }
    });
}
export type AddToWaitlistInput = z.input<ReturnType<typeof addToWaitlistInputSchema>>;

/** Whether a start time suits a waitlist entry's part of the day. */
export function suitsTimeOfDay(time: string, timeOfDay: WaitlistTimeOfDay): boolean {
  if (timeOfDay === 'any') return true;
  return timeOfDay === 'morning' ? time < AFTERNOON_FROM : time >= AFTERNOON_FROM;
}
