import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useMyAccount } from '../api/my-account-api.ts';

/**
 * After sign-in the whole app speaks the account's language (My account changes it; decision 031). The choice made
 * on the public pages before signing in applies until the account's is known.
 */
export function useAccountLanguage(signedIn: boolean): void {
  const { i18n } = useTranslation();
  const account = useMyAccount(signedIn);
  const language = account.data?.language;
  useEffect(() => {
    if (language && (i18n.resolvedLanguage ?? i18n.language) !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);
}
