/** "2 hours ago" / "hace 2 horas": how long ago an instant was, in the reader's language, in its largest unit. */
export function formatAgo(iso: string, language: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** An instant as date and time in the reader's language and zone ("Nov 24, 2026, 3:05 PM"). */
export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A length of time in days, hours and minutes ("3 d 4 h", "12 min"), in the reader's language. */
export function formatDuration(totalSeconds: number, language: string): string {
  const unit = (value: number, name: 'day' | 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  if (days > 0) return `${unit(days, 'day')} ${unit(hours, 'hour')}`;
  if (hours > 0) return `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  if (minutes > 0) return unit(minutes, 'minute');
  return unit(Math.round(totalSeconds), 'second');
}

/** Whether an instant lies more than `hours` in the past. */
export function isOlderThan(iso: string, hours: number, now: number = Date.now()): boolean {
  return now - Date.parse(iso) > hours * 3_600_000;
}
