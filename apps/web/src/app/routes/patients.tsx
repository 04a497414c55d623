import { useTranslation } from 'react-i18next';

import { AccessDenied } from '../../components/access-denied.tsx';
import { PatientListScreen } from '../../features/patients/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canReadPatients } from '../route-guard.ts';

/** `/patients`: the list for roles that may read patients, Access Denied for the others. */
function PatientsRoute() {
  const { t } = useTranslation(['patients', 'shared']);
  const { data: user } = useCurrentUser();
  // The protected route renders this only with a user.
  if (!user) return null;
  if (!canReadPatients(user)) {
    return (
      <AccessDenied
        message={t('shared:patientMessages.accessDeniedPage')}
        action={{ to: '/dashboard', label: t('list.returnToDashboard') }}
      />
    );
  }
  return <PatientListScreen role={user.role} />;
}

export { PatientsRoute as Component };
