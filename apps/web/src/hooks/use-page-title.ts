import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppConfigValue } from '../lib/page-bootstrap.ts';

/** Sets the document title to "<title> · <practice name>" so tabs, history and screen readers name the page. */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  const config = useAppConfigValue();
  const practiceName = config?.practiceName ?? t('brandFallback');
  useEffect(() => {
    document.title = t('pageTitle', { title, practiceName });
  }, [t, title, practiceName]);
}
