import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import {
  addDays,
  onTimeOff,
  RECURRENCE_MAX_COUNT,
  RECURRENCE_MAX_DAYS,
  slotStartTimes,
  zonedInstant,
  type RecurrenceFrequency,
  type WorkingHoursInterval,
} from '@telehealth/shared';

/*
 * Scheduling arithmetic without the database: where an appointment falls in a provider's week, which start
 * times of a day are free, and the dates of a recurring series. Dates and times are the practice's; instants are
 * made from them in the practice's zone, never in the server's own (its TZ changes nothing).
 */

export interface Occurrence {
  date: string;
  time: string;
  startsAt: Date;
  endsAt: Date;
}

export function occurrence(date: string, time: string, duration: number, zone: string): Occurrence {
  const startsAt = zonedInstant(date, time, zone);
  return { date, time, startsAt, endsAt: new Date(startsAt.getTime() + duration * 60_000) };
}

export { onTimeOff, weekdayOf, withinWorkingHours } from '@telehealth/shared';

export type SlotState = 'free' | 'taken' | 'time-off' | 'past';

/**
 * The start times a visit of `duration` could take on one date: those the provider's working hours hold in the
 * practice's step (`slotStartTimes`, decision 045), each free or why not (taken by another appointment, time off,
 * already past). A time outside working hours is not offered at all.
 */
export function daySlots(options: {
  date: string;
  duration: number;
  step: number;
  zone: string;
  week: readonly WorkingHoursInterval[];
  timeOff: readonly { startDate: string; endDate: string }[];
  busy: readonly { startsAt: Date; endsAt: Date }[];
  now: Date;
}): { time: string; startsAt: Date; state: SlotState }[] {
  const away = onTimeOff(options.date, options.timeOff);
  return slotStartTimes(options).map((time) => {
    const slot = occurrence(options.date, time, options.duration, options.zone);
    let state: SlotState = 'free';
    if (slot.startsAt <= options.now) state = 'past';
    else if (options.busy.some((b) => b.startsAt < slot.endsAt && slot.startsAt < b.endsAt)) state = 'taken';
    else if (away) state = 'time-off';
    return { time, startsAt: slot.startsAt, state };
  });
}

const FREQUENCIES: Record<RecurrenceFrequency, { freq: 'WEEKLY' | 'MONTHLY'; interval: number }> = {
  weekly: { freq: 'WEEKLY', interval: 1 },
  biweekly: { freq: 'WEEKLY', interval: 2 },
  monthly: { freq: 'MONTHLY', interval: 1 },
};

/**
 * The dates of a series that starts on `date` at `time`: weekly, every two weeks or monthly (RFC 5545, by
 * rrule-temporal, in the practice's zone, so the local time stays across daylight-saving changes), for `count`
 * visits or until `until` (included), never past RECURRENCE_MAX_DAYS after the first. A monthly series on the
 * 29th to 31st skips the months without that day, as RFC 5545 says.
 */
export function seriesDates(options: {
  date: string;
  time: string;
  zone: string;
  frequency: RecurrenceFrequency;
  count?: number | null;
  until?: string | null;
}): string[] {
  const { freq, interval } = FREQUENCIES[options.frequency];
  const dtstart = Temporal.PlainDateTime.from(`${options.date}T${options.time}`).toZonedDateTime(options.zone);
  const limit = addDays(options.date, RECURRENCE_MAX_DAYS);
  const last = options.until && options.until < limit ? options.until : limit;
  const rule = new RRuleTemporal({
    freq,
    interval,
    count: Math.min(options.count ?? RECURRENCE_MAX_COUNT, RECURRENCE_MAX_COUNT),
    until: Temporal.PlainDate.from(last).toZonedDateTime({ timeZone: options.zone, plainTime: '23:59:59' }),
    tzid: options.zone,
    dtstart,
  });
  return rule.all().map((zoned) => zoned.toPlainDate().toString());
}
