import { Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PlaceholderPage } from '../../components/placeholder-page.tsx';
import { PublicLayout } from '../../components/layouts/public-layout.tsx';
import { useAppConfig } from '../../lib/auth.ts';
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

/** `/home` and `/coming-soon`: public pages without the app header. */
export function PublicPlaceholderRoute({ page }: { page: 'home' | 'comingSoon' }) {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  return (
    <PublicLayout practiceName={config?.practiceName ?? t('brandFallback')}>
      <Container size="lg" py="xl">
        <PlaceholderPage
          title={t(`publicPages.${page}.title`)}
          body={t(`publicPages.${page}.body`)}
          backTo={{ to: '/', label: t('placeholder.backToHome') }}
        />
      </Container>
    </PublicLayout>
  );
}
