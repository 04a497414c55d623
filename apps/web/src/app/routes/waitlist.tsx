import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { AccessDenied } from '../../components/access-denied.tsx';
import { WaitlistScreen } from '../../features/waitlist/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/waitlist`: a provider's waitlist, for the roles that schedule; Access Denied for the others. */
function WaitlistRoute() {
  const { t } = useTranslation(['waitlist', 'shared']);
  const { data: user } = useCurrentUser();
  if (!user) return null;
  if (!can(user.role, 'appointment:create')) {
    return (
      <AccessDenied
        message={t('shared:appointmentMessages.cannotCreate')}
        action={{ to: '/dashboard', label: t('waitlist:backToDashboard') }}
      />
    );
  }
  return <WaitlistScreen />;
}

export { WaitlistRoute as Component };
