import { Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { EmergencyAccessReview } from '../../features/emergency-access/index.ts';
import { usePageTitle } from '../../hooks/use-page-title.ts';

/** The tabs of the security screen; `?tab=` names the open one (the emergency access mail links to its tab). */
const TABS = ['emergency'] as const;
type SecurityTab = (typeof TABS)[number];

/** `/admin/security`: the administrators' security screen, one tab per concern. */
function AdminSecurityRoute() {
  const { t } = useTranslation(['screens', 'emergency-access']);
  usePageTitle(t('screens:adminSecurity'));
  const [params, setParams] = useSearchParams();
  const tab: SecurityTab = TABS.find((name) => name === params.get('tab')) ?? 'emergency';
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1}>{t('screens:adminSecurity')}</Title>
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value) setParams({ tab: value }, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="emergency">{t('emergency-access:review.tab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="emergency" pt="md">
          <EmergencyAccessReview />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

export { AdminSecurityRoute as Component };
