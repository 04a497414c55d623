import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { ApiTokensPanel, AuditTrailPanel } from '../../features/audit-trail/index.ts';
import { EmergencyAccessReview } from '../../features/emergency-access/index.ts';
import { usePageTitle } from '../../hooks/use-page-title.ts';

/**
 * The tabs of the security screen; `?tab=` names the open one (the emergency access mail links to its tab), the
 * audit trail when none is named. `?patient=` (a record id, from the patient's chart) searches the trail for that
 * patient.
 */
const TABS = ['audit', 'tokens', 'emergency'] as const;
type SecurityTab = (typeof TABS)[number];

/**
 * `/admin/security` (administrators), one tab per concern: the audit trail (search, entry detail, chain
 * verification) and the API tokens of log collectors (decision 034); emergency access reviews (decision 036).
 */
function AdminSecurityRoute() {
  const { t } = useTranslation(['screens', 'audit-trail', 'emergency-access']);
  usePageTitle(t('screens:adminSecurity'));
  const [params, setParams] = useSearchParams();
  const tab: SecurityTab = TABS.find((name) => name === params.get('tab')) ?? 'audit';
  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap={4}>
        <Title order={1}>{t('screens:adminSecurity')}</Title>
        <Text c="dimmed">{t('audit-trail:screenIntro')}</Text>
      </Stack>
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value) setParams({ tab: value }, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="audit">{t('audit-trail:tabs.audit')}</Tabs.Tab>
          <Tabs.Tab value="tokens">{t('audit-trail:tabs.tokens')}</Tabs.Tab>
          <Tabs.Tab value="emergency">{t('emergency-access:review.tab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="audit" pt="md">
          {/* A new ?patient= (another chart's link) starts a new search. */}
          <AuditTrailPanel key={params.get('patient') ?? ''} patientId={params.get('patient') ?? undefined} />
        </Tabs.Panel>
        <Tabs.Panel value="tokens" pt="md">
          <ApiTokensPanel />
        </Tabs.Panel>
        <Tabs.Panel value="emergency" pt="md">
          <EmergencyAccessReview />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

export { AdminSecurityRoute as Component };
