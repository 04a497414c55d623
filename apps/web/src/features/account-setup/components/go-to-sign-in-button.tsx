import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { LOGIN_PATH, writeLoginHandoff } from '../../../lib/login-handoff.ts';

/**
 * The way on once a password is set: the sign-in page (a page load), told the address so it is filled in and
 * only the password is asked for.
 */
export function GoToSignInButton({ email }: { email: string | null }) {
  const { t } = useTranslation('account');
  return (
    <Button
      component="a"
      href={LOGIN_PATH}
      onClick={() => {
        if (email) writeLoginHandoff({ email });
      }}
      style={{ alignSelf: 'flex-start' }}
    >
      {t('goToSignIn')}
    </Button>
  );
}
