import { z } from 'zod';
import { appointmentMessage, AppointmentDateSchema, ClockTimeSchema, ProviderIdSchema } from './appointments.ts';
import { textSchema } from './text.ts';

/*
 * A provider's working hours and time off (decision 045): the week's intervals, the default when none are set, and
 * the schemas of setWorkingHours and addTimeOff.
 */

export const TIME_OFF_LABEL_MAX = 100;

export interface WorkingHoursInterval {
  /** ISO weekday: 1 Monday ... 7 Sunday. */
  weekday: number;
  startTime: string;
  endTime: string;
}

/** Provider working hours when a provider has set none: Monday to Friday, 08:00-18:00 in the practice's zone. */
export const DEFAULT_WORKING_HOURS: readonly WorkingHoursInterval[] = [1, 2, 3, 4, 5].map((weekday) => ({
  weekday,
  startTime: '08:00',
  endTime: '18:00',
}));

/** ISO weekdays: 1 Monday ... 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const SetWorkingHoursInputSchema = z
  .object({
    providerId: ProviderIdSchema,
    intervals: z
      .array(
        z
          .object({
            weekday: z.number().int().min(1).max(7),
            startTime: ClockTimeSchema,
            endTime: ClockTimeSchema,
          })
          .refine((i) => i.startTime < i.endTime, {
            ...appointmentMessage.issue('workingHoursOrder'),
            path: ['endTime'],
          }),
      )
      .max(28),
  })
  .superRefine((input, ctx) => {
    for (const weekday of WEEKDAYS) {
      const day = input.intervals
        .filter((i) => i.weekday === weekday)
        .sort((a, b) => (a.startTime < b.startTime ? -1 : 1));
      for (let i = 1; i < day.length; i++) {
        if (day[i]!.startTime < day[i - 1]!.endTime) {
          ctx.addIssue({
            code: 'custom',
            ...appointmentMessage.issue('workingHoursOverlap', { weekday: WEEKDAY_NAMES[weekday - 1]! }),
            path: ['intervals'],
          });
          return;
        }
      }
    }
  });
export type SetWorkingHoursInput = z.input<typeof SetWorkingHoursInputSchema>;

export const AddTimeOffInputSchema = z
  .object({
    providerId: ProviderIdSchema,
    startDate: AppointmentDateSchema,
    endDate: AppointmentDateSchema,
    label: textSchema({ label: 'Label', kind: 'short', max: TIME_OFF_LABEL_MAX }).nullish(),
  })
  .refine((t) => t.startDate <= t.endDate, { ...appointmentMessage.issue('timeOffOrder'), path: ['endDate'] });
export type AddTimeOffInput = z.input<typeof AddTimeOffInputSchema>;
