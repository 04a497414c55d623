/** A practice date (YYYY-MM-DD) as a full day in the page's language ("Thursday, December 10, 2026"). */
export function formatDay(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}
