import { Stack } from '@mantine/core';
import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { AccessDenied } from '../../components/access-denied.tsx';
import { EmergencyAccessOffer } from '../../features/emergency-access/index.ts';
import { PatientListScreen } from '../../features/patients/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canReadPatients } from '../route-guard.ts';

/** `/patients`: the list for roles that may read patients, Access Denied for the others. */
function PatientsRoute() {
  const { t } = useTranslation(['patients', 'shared']);
  const { data: user } = useCurrentUser();
  const navigate = useNavigate();
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
  return (
    <Stack gap="lg">
      <PatientListScreen role={user.role} />
      {/* A provider looks up a patient they do not see by exact name and date of birth (decision 036). */}
      {can(user.role, 'emergency-access:request') ? (
        <EmergencyAccessOffer onGranted={(grant) => void navigate(`/patients/${grant.patientId}`)} />
      ) : null}
    </Stack>
  );
}

export { PatientsRoute as Component };
