import { zonedDateTime } from '@telehealth/shared';

/** A practice date (YYYY-MM-DD) as a full day in a language ("Thursday, December 10, 2026"). */
export function formatDay(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** A practice date as a short day ("Thu, Dec 10"). */
export function formatShortDay(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/** An instant as the practice's short day and time ("Thu, Dec 10, 10:00"). */
export function formatPracticeInstant(iso: string, zone: string, language: string): string {
  const { date, time } = zonedDateTime(new Date(iso), zone);
  return `${formatShortDay(date, language)}, ${time}`;
}

/** The browser's own time zone (IANA name), or null when it cannot tell. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A moment's date in the reader's language and time zone ("Nov 24, 2026"). */
export function formatInstantDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso));
}

/** A moment's date and time in the reader's language and time zone ("Nov 24, 2026, 3:05 PM"). */
export function formatInstantDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
