/** A moment as the reader's clock time, 24-hour HH:MM ("14:05"). */
export function formatClockTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

/** Whole minutes from one moment to another (at least 0). */
export function minutesBetween(from: string, to: string): number {
  return Math.max(Math.round((Date.parse(to) - Date.parse(from)) / 60_000), 0);
}
