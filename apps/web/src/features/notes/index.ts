export { NotesScreen, useNotesPageTitle } from './components/notes-screen.tsx';
export { NoteTemplatesScreen } from './components/templates-screen.tsx';
