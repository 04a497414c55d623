import { Temporal } from 'temporal-polyfill';

/*
 * Practice dates and times (decision 023): a date (YYYY-MM-DD) and a time (HH:MM) are always the practice's, turned
 * into instants and back in its zone. Used by the scheduling schemas, the server and the browser alike.
 */

/** The instant at which a practice date and time begin in `zone` (an hour that does not exist moves forward). */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const zoned = Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(zone, { disambiguation: 'compatible' });
  return new Date(zoned.epochMilliseconds);
}

/** An instant as a date (YYYY-MM-DD) and time (HH:MM) in `zone`. */
export function zonedDateTime(instant: Date, zone: string): { date: string; time: string; weekday: number } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone);
  return {
    date: zoned.toPlainDate().toString(),
    time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
    weekday: zoned.dayOfWeek,
  };
}

/** Today's date in `zone`. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return zonedDateTime(now, zone).date;
}

/** The date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** Whether `zone` is an IANA time zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

/** Minutes since midnight of an HH:MM time. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}
