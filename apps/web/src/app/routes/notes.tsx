import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { AccessDenied } from '../../components/access-denied.tsx';
import { NotesScreen, useNotesPageTitle } from '../../features/notes/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canUseNotes } from '../route-guard.ts';

/**
 * `/notes` (Clinical Notes): providers write and read; administrators see that notes exist; a patient (whose
 * shared notes are in My Records) gets Access Denied rather than a list the server would refuse.
 */
function NotesRoute() {
  const { t } = useTranslation('common');
  useNotesPageTitle();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  if (!canUseNotes(user)) {
    return (
      <AccessDenied
        message={t('accessDenied.notes')}
        action={{ to: '/dashboard', label: t('accessDenied.backToDashboard') }}
      />
    );
  }
  return <NotesScreen canWrite={can(user.role, 'note:write')} />;
}

export { NotesRoute as Component };
