import { ageInYears } from '@telehealth/shared';

export function patientFullName(patient: { firstName: string; lastName: string }): string {
  return `${patient.firstName} ${patient.lastName}`;
}

export function patientInitials(patient: { firstName: string; lastName: string }): string {
  return `${patient.firstName.charAt(0)}${patient.lastName.charAt(0)}`.toUpperCase();
}

/**
 * A calendar date (YYYY-MM-DD, such as a date of birth) in the reader's language. It is read and written in
 * UTC so that no time zone moves it to the day before.
 */
export function formatCalendarDate(isoDate: string, locale: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** The local date of a moment (an ISO timestamp such as createdAt). */
export function formatTimestampDate(isoTimestamp: string, locale: string): string {
  const date = new Date(isoTimestamp);
  if (Number.isNaN(date.getTime())) return isoTimestamp;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
}

/** Whole years of age today, or null for a date that cannot be read. */
export function ageOf(dateOfBirth: string, now: Date = new Date()): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return null;
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return ageInYears(dateOfBirth, today);
}
