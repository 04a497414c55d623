import { zonedDateTime } from '@telehealth/shared';

/** A practice date (YYYY-MM-DD) as a full day in a language ("Thursday, December 10, 2026"). */
export function formatDay(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** A calendar date (YYYY-MM-DD: an onset, a start) in a language, as a medium date ("Dec 10, 2026"). */
export function formatCalendarDate(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
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

/*
 * Clinic times (decision 050): every time of the practice's day (visits, the dashboard clock, messages) is shown in
 * the practice's time zone, followed by the zone's short name ("EST", "CET", "GMT-5") whenever the device's zone
 * would show that moment at another time. A reader in New York sees "08:00"; the same reader in Madrid sees
 * "08:00 EST", never an unlabelled time of another zone beside the practice's.
 */

/** The short name of `zone` at a moment, in a language ("EST" in English, "GMT-5" in Spanish). */
export function zoneShortName(zone: string, at: Date, language: string): string {
  try {
    const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'short' }).formatToParts(at);
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? zone;
  } catch {
    return zone;
  }
}

/**
 * Whether a moment reads differently in the practice's zone than on the device: then its time needs the zone's
 * name. A device whose zone is unknown is told the zone always.
 */
export function zoneDiffers(zone: string, viewerZone: string | null, at: Date): boolean {
  if (!viewerZone) return true;
  if (viewerZone === zone) return false;
  try {
    const practice = zonedDateTime(at, zone);
    const viewer = zonedDateTime(at, viewerZone);
    return practice.date !== viewer.date || practice.time !== viewer.time;
  } catch {
    return true;
  }
}

/** How clinic times are written for one reader: the practice's zone, the device's, the reader's language. */
export interface ClinicZone {
  zone: string;
  viewerZone: string | null;
  language: string;
}

/** `text` (a time of `at` written in the practice's zone) with the zone's short name when the device's differs. */
export function withZoneName(text: string, at: Date, clinic: ClinicZone): string {
  return zoneDiffers(clinic.zone, clinic.viewerZone, at)
    ? `${text} ${zoneShortName(clinic.zone, at, clinic.language)}`
    : text;
}

/** A moment's date and time in the practice's zone ("Nov 24, 2026, 3:05 PM", "… 3:05 PM EST" elsewhere). */
export function formatClinicDateTime(iso: string, clinic: ClinicZone): string {
  const at = new Date(iso);
  const text = new Intl.DateTimeFormat(clinic.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: clinic.zone,
  }).format(at);
  return withZoneName(text, at, clinic);
}

/** A moment's time of day in the practice's zone, optionally with seconds ("3:05:09 PM EST" elsewhere). */
export function formatClinicTime(at: Date, clinic: ClinicZone, options: { seconds?: boolean } = {}): string {
  const text = new Intl.DateTimeFormat(clinic.language, {
    hour: 'numeric',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' as const } : {}),
    timeZone: clinic.zone,
  }).format(at);
  return withZoneName(text, at, clinic);
}

/** A moment's long date in the practice's zone ("Thursday, November 26, 2026"). */
export function formatClinicLongDate(at: Date, clinic: ClinicZone): string {
  return new Intl.DateTimeFormat(clinic.language, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: clinic.zone,
  }).format(at);
}

/** A visit's time as the practice wrote it ("08:00"), with the zone's short name when the device's differs. */
export function formatVisitTime(visit: { time: string; startsAt: string }, clinic: ClinicZone): string {
  return withZoneName(visit.time, new Date(visit.startsAt), clinic);
}
