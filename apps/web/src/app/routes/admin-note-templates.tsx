import { NoteTemplatesScreen } from '../../features/notes/index.ts';

/** `/admin/note-templates`. */
export { NoteTemplatesScreen as Component };
