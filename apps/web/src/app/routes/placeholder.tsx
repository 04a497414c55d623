import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../components/placeholder-page.tsx';
import type { englishResources } from '../../lib/i18n.ts';

export type ScreenKey = keyof (typeof englishResources)['screens'];

/** A signed-in screen that a later release builds, inside the app shell. */
export function PlaceholderRoute({ screen }: { screen: ScreenKey }) {
  const { t } = useTranslation(['common', 'screens']);
  return (
    <PlaceholderPage
      title={t(`screens:${screen}`)}
      backTo={{ to: '/dashboard', label: t('placeholder.backToDashboard') }}
    />
  );
}
