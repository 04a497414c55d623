import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { AccessDenied } from '../../components/access-denied.tsx';
import { AvailabilityScreen } from '../../features/appointments/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/availability`: working hours, time off and the calendar feed, for providers and administrators. */
function AvailabilityRoute() {
  const { t } = useTranslation(['appointments', 'shared']);
  const { data: user } = useCurrentUser();
  if (!user) return null;
  if (!can(user.role, 'availability:manage')) {
    return (
      <AccessDenied
        message={t('shared:appointmentMessages.cannotManageAvailability')}
        action={{ to: '/dashboard', label: t('appointments:backToDashboard') }}
      />
    );
  }
  return <AvailabilityScreen />;
}

export { AvailabilityRoute as Component };
