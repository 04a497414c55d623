/** A note's date and time in the reader's language ("Nov 24, 2026, 3:05 PM"). */
export function formatNoteDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
