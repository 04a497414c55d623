import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { AccessDenied } from '../../components/access-denied.tsx';
import { NewAppointmentScreen } from '../../features/appointments/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/appointments/new`: the scheduling form, for the roles that schedule; Access Denied for the others. */
function NewAppointmentRoute() {
  const { t } = useTranslation('appointments');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  if (!can(user.role, 'appointment:create')) {
    return <AccessDenied message={t('accessDenied')} action={{ to: '/dashboard', label: t('backToDashboard') }} />;
  }
  return <NewAppointmentScreen />;
}

export { NewAppointmentRoute as Component };
