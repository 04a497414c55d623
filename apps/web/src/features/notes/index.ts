export { NotesScreen, useNotesPageTitle } from './components/notes-screen.tsx';
export { NoteTemplatesScreen } from './components/templates-screen.tsx';
// The reader's formatting, for the notes shared with a patient.
export { NoteContent } from './components/note-content.tsx';
