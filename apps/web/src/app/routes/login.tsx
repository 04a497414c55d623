import '../../components/mantine-styles-public.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { LoginScreen } from '../../features/auth/index.ts';
import { usePageTitle } from '../../hooks/use-page-title.ts';
import { clearSessionEndReason, useAppConfig } from '../../lib/auth.ts';
import { readLoginLocationState } from '../route-guard.ts';

/** `/login`. */
function LoginRoute() {
  const { t } = useTranslation(['common', 'screens']);
  const location = useLocation();
  const { data: config } = useAppConfig();
  // Read once: the message belongs to this arrival, not to later visits of the page.
  const [sessionExpired] = useState(() => readLoginLocationState(location.state).sessionExpired === true);
  usePageTitle(t('screens:login'));

  useEffect(() => {
    clearSessionEndReason();
  }, []);

  return (
    <LoginScreen
      practiceName={config?.practiceName ?? t('brandFallback')}
      demoAccounts={config?.demoMode ? config.demoAccounts : null}
      sessionExpired={sessionExpired}
    />
  );
}

export { LoginRoute as Component };
