import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useMyAccount } from '../api/my-account-api.ts';

/**
 * After sign-in the whole app speaks the language the person chose in My account, on every device (decision 031).
 * Until they choose one there, the browser's choice (the public pages' switcher) stays.
 */
export function useAccountLanguage(signedIn: boolean): void {
  const { i18n } = useTranslation();
  const account = useMyAccount(signedIn);
  const language = account.data?.languageChosen ? account.data.language : undefined;
  useEffect(() => {
    if (language && (i18n.resolvedLanguage ?? i18n.language) !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);
}
