import { Temporal } from 'temporal-polyfill';
import { minutesOf } from './practice-dates.ts';
import type { WorkingHoursInterval } from './working-hours.ts';
import { PREFERRED_APPOINTMENT_TIMES, type PreferredAppointmentTime } from './options.ts';

/*
 * The start times a provider offers (decision 045): whatever their working hours say, in the practice's step.
 * One set of functions for the server (which offers the times and refuses any other) and the browser (which shows
 * them), so that the two can never disagree. Dates and times are the practice's, in its zone.
 */

/** How far apart the offered start times are, counted from midnight: a practice setting. */
export const SLOT_STEPS = [15, 30] as const;
export type SlotStep = (typeof SLOT_STEPS)[number];
/** The specification's grid (every 30 minutes); with the default week it gives its 08:00-17:30. */
export const DEFAULT_SLOT_STEP: SlotStep = 30;
/** The finest step: a time off it is never a start time, whatever the setting. */
export const FINEST_SLOT_STEP: SlotStep = 15;

/** ISO weekday (1 Monday ... 7 Sunday) of a practice date. */
export function weekdayOf(date: string): number {
  return Temporal.PlainDate.from(date).dayOfWeek;
}

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Whether a time (HH:MM) falls on the step counted from midnight. */
export function isOnSlotStep(time: string, step: number): boolean {
  return minutesOf(time) % step === 0;
}

/** Whether a visit of `duration` minutes from `time` on `date` lies inside one interval of the provider's week. */
export function withinWorkingHours(
  date: string,
  time: string,
  duration: number,
  week: readonly WorkingHoursInterval[],
): boolean {
  const weekday = weekdayOf(date);
  const start = minutesOf(time);
  const end = start + duration;
  return week.some((i) => i.weekday === weekday && minutesOf(i.startTime) <= start && end <= minutesOf(i.endTime));
}

/** Whether a date falls in any of the provider's time off (whole practice dates). */
export function onTimeOff(date: string, timeOff: readonly { startDate: string; endDate: string }[]): boolean {
  return timeOff.some((t) => t.startDate <= date && date <= t.endDate);
}

/**
 * The start times a visit of `duration` minutes may take on `date`: every time on the step whose whole visit fits
 * inside one of the day's working-hours intervals, in order. Time off is not considered here (see
 * `isOfferedStart`): a day off still has its hours, shown as unavailable.
 */
export function slotStartTimes(options: {
  date: string;
  duration: number;
  step: number;
  week: readonly WorkingHoursInterval[];
}): string[] {
  const weekday = weekdayOf(options.date);
  const starts = new Set<number>();
  for (const interval of options.week) {
    if (interval.weekday !== weekday) continue;
    const end = minutesOf(interval.endTime);
    const first = Math.ceil(minutesOf(interval.startTime) / options.step) * options.step;
    for (let at = first; at + options.duration <= end && at < 24 * 60; at += options.step) starts.add(at);
  }
  return [...starts].sort((a, b) => a - b).map(clock);
}

/**
 * The rule the server enforces on a booking and a move without staff's confirmation: the time is on the step,
 * the whole visit lies inside working hours, and the day is not time off.
 */
export function isOfferedStart(options: {
  date: string;
  time: string;
  duration: number;
  step: number;
  week: readonly WorkingHoursInterval[];
  timeOff: readonly { startDate: string; endDate: string }[];
}): boolean {
  return (
    isOnSlotStep(options.time, options.step) &&
    withinWorkingHours(options.date, options.time, options.duration, options.week) &&
    !onTimeOff(options.date, options.timeOff)
  );
}

/**
 * The spec's parts of the day for the patient's "preferred appointment times", as [from, to) in practice time:
 * morning 8am-12pm, afternoon 12pm-5pm, evening 5pm-8pm.
 */
const PREFERRED_TIME_WINDOWS: Partial<Record<PreferredAppointmentTime, readonly [string, string]>> = {
  morning: ['08:00', '12:00'],
  afternoon: ['12:00', '17:00'],
  evening: ['17:00', '20:00'],
};

/**
 * The preferred appointment times the practice can honour, given the weeks of all its providers: a part of the
 * day when someone works during it (any day), weekends when someone works on Saturday or Sunday, flexible always.
 * In the specification's order.
 */
export function preferredTimesCovered(weeks: readonly (readonly WorkingHoursInterval[])[]): PreferredAppointmentTime[] {
  const intervals = weeks.flat();
  return PREFERRED_APPOINTMENT_TIMES.filter((option) => {
    if (option === 'flexible') return true;
    if (option === 'weekends') return intervals.some((i) => i.weekday === 6 || i.weekday === 7);
    const window = PREFERRED_TIME_WINDOWS[option];
    if (!window) return true;
    const [from, to] = window.map(minutesOf) as [number, number];
    return intervals.some((i) => minutesOf(i.startTime) < to && minutesOf(i.endTime) > from);
  });
}
