/**
 * "Write the note" at the end of a video visit opens the patient chart with the note editor for that visit. The
 * visit travels in the history entry's state, never in the address: ids only, no health data (decision 047).
 */
export interface NoteAfterVisitState {
  noteForVisit: string;
}

/** The chart's address and state that open a new note about this visit of the patient. */
export function noteAfterVisitLink(patientId: string, appointmentId: string) {
  return { to: `/patients/${patientId}`, state: { noteForVisit: appointmentId } satisfies NoteAfterVisitState };
}

/** The visit a chart was opened to write a note about, or null. */
export function readNoteAfterVisit(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('noteForVisit' in state)) return null;
  const id = (state as NoteAfterVisitState).noteForVisit;
  return typeof id === 'string' && id !== '' ? id : null;
}
