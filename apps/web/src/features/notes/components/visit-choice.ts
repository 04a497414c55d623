/** A visit a note can be about: its practice date and time (the practice's time zone) and status. */
export interface NoteVisit {
  id: string;
  date: string;
  time: string;
  status: string;
}

/** Minutes since the epoch of a practice date and time, read as if UTC: enough to compare distances. */
function minutesOf(date: string, time: string): number {
  return Date.parse(`${date}T${time}:00Z`) / 60_000;
}

/**
 * The patient's visits as a note offers them: nearest to now first, before or after (the visit just held and the
 * one about to start come first); cancelled visits left out, unless the note is already about one (`keepId`).
 * `todaysId` is the visit to choose by itself: today's nearest one that was not cancelled, or null.
 */
export function orderVisitsForNote(
  visits: readonly NoteVisit[],
  now: { date: string; time: string },
  keepId: string | null = null,
): { visits: NoteVisit[]; todaysId: string | null } {
  const at = minutesOf(now.date, now.time);
  const distance = (visit: NoteVisit) => Math.abs(minutesOf(visit.date, visit.time) - at);
  const ordered = visits
    .filter((visit) => visit.status !== 'cancelled' || visit.id === keepId)
    .map((visit) => ({ visit, distance: distance(visit), start: minutesOf(visit.date, visit.time) }))
    // Equally near: the earlier one first (the visit that was held, rather than the one to come).
    .sort((a, b) => a.distance - b.distance || a.start - b.start)
    .map((x) => x.visit);
  const todays = ordered.find((visit) => visit.date === now.date && visit.status !== 'cancelled');
  return { visits: ordered, todaysId: todays?.id ?? null };
}

/** A visit's practice date and time in a language ("Thu, Nov 26, 2026, 2:00 PM"). */
export function formatVisit(visit: { date: string; time: string }, language: string): string {
  return new Intl.DateTimeFormat(language, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(`${visit.date}T${visit.time}:00Z`));
}

/** The title a template gives a note about a visit ("Psychiatric evaluation — Nov 26, 2026"), in a language. */
export function templateTitle(templateName: string, visitDate: string | null, language: string): string {
  if (!visitDate) return templateName;
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${visitDate}T12:00:00Z`),
  );
  return `${templateName} — ${day}`;
}

/**
 * The built-in template a note about a visit starts from (decision 047): the patient's first visit (no earlier
 * visit held) is an evaluation; any later one a follow-up, written as a SOAP note.
 */
export function templateKeyForVisit(
  visits: readonly NoteVisit[],
  appointmentId: string,
): 'psychiatricEvaluation' | 'soap' {
  const visit = visits.find((x) => x.id === appointmentId);
  if (!visit) return 'soap';
  const start = minutesOf(visit.date, visit.time);
  const held = ['completed', 'in-progress', 'checked-in'];
  const earlier = visits.some(
    (x) => x.id !== appointmentId && held.includes(x.status) && minutesOf(x.date, x.time) < start,
  );
  return earlier ? 'soap' : 'psychiatricEvaluation';
}
