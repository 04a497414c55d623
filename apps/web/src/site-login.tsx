// `/login` and the request forms' addresses on the public site's page (site-main.tsx loads this module for
// them): the sign-in form, the demo accounts and the two request forms, without the single-page app's router,
// query cache or component library, so the door to the portal opens quickly on a slow phone. Signing in loads
// the app. See docs/decisions/013-sign-in-on-the-public-site.md and 048-forms-with-addresses.md.
import './lib/zod-config.ts';

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { LoginPage } from './features/auth/index.ts';
import { HOME_AFTER_SIGN_IN, takeLoginHandoff } from './lib/login-handoff.ts';
import { useAppConfigValue } from './lib/page-bootstrap.ts';
import { broadcastSessionEvent, startSessionSync } from './lib/session-sync.ts';
import { sharedTexts } from './lib/shared-texts.ts';
import auth from './locales/en/auth.json';
import errors from './locales/en/errors.json';

/** The English texts this page adds to the site's (errors and shared: what the server and the schemas say). */
export const englishResources = { auth, errors, shared: sharedTexts };

// What the page before said (lib/login-handoff.ts), read once for this page load.
const handoff = takeLoginHandoff();

function goOn(): void {
  window.location.assign(handoff.from ?? HOME_AFTER_SIGN_IN);
}

export function SiteLoginPage() {
  const { t } = useTranslation('common');
  const config = useAppConfigValue();

  // Signed in in another tab of this browser: this one goes on too (the server would redirect a reload).
  useEffect(
    () =>
      startSessionSync((event) => {
        if (event.type === 'signed-in') goOn();
      }),
    [],
  );

  return (
    <LoginPage
      practiceName={config?.practiceName ?? t('brandFallback')}
      demoAccounts={config?.demoMode ? config.demoAccounts : null}
      sessionEnded={handoff.sessionExpired ? 'expired' : handoff.signedOut ? 'signed-out' : null}
      knownEmail={handoff.email ?? null}
      onSignedIn={() => {
        broadcastSessionEvent({ type: 'signed-in' });
        goOn();
      }}
    />
  );
}
