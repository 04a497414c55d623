import '../../components/mantine-styles.ts';
import { Notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';

import { AppShellLayout } from '../../components/layouts/app-shell-layout.tsx';
import { IdleLogoff } from '../../features/session/index.ts';
import { useAccountLanguage } from '../../features/my-account/index.ts';
import { useAuditReporting } from '../../hooks/use-audit-reporting.ts';
import { useAppConfig, useCurrentUser, useSignOut } from '../../lib/auth.ts';

/** The signed-in frame: header, the screen, and the automatic logoff. */
function AppLayoutRoute() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const { data: config } = useAppConfig();
  const signOut = useSignOut();
  // After sign-in the app speaks the account's language (My account).
  useAccountLanguage(!!user);
  // The browser's own audit events: page views of these protected screens and uncaught errors (decision 034).
  useAuditReporting(!!user);

  return (
    <>
      {/* Toasts are for signed-in screens; mounting them here keeps their code off the public pages. */}
      <Notifications position="top-right" />
      <AppShellLayout
        user={user}
        practiceName={config?.practiceName ?? t('brandFallback')}
        onSignOut={() => {
          signOut.mutate();
        }}
        signingOut={signOut.isPending}
      >
        <Outlet />
      </AppShellLayout>
      {/* Without the configuration the server's timeout is unknown; the server still enforces it. */}
      {config ? <IdleLogoff idleMinutes={config.sessionIdleMinutes} /> : null}
    </>
  );
}

export { AppLayoutRoute as Component };
