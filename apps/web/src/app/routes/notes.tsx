import { can } from '@telehealth/shared';

import { NotesScreen, useNotesPageTitle } from '../../features/notes/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/notes` (Clinical Notes): providers write and read; administrators see that notes exist; patients are refused by the server. */
function NotesRoute() {
  useNotesPageTitle();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <NotesScreen canWrite={can(user.role, 'note:write')} />;
}

export { NotesRoute as Component };
