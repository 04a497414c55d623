import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { EmergencyAccessAlert } from '../../features/emergency-access/index.ts';
import { ConsoleStatsCards, RecentActivity } from '../../features/admin-console/index.ts';
import { usePageTitle } from '../../hooks/use-page-title.ts';

const LINKS = [
  { to: '/admin/access-requests', key: 'accessRequests', description: 'accessRequestsDescription' },
  { to: '/admin/outbox', key: 'outbox', description: 'outboxDescription' },
  { to: '/admin/stored-text', key: 'storedText', description: 'storedTextDescription' },
  { to: '/admin/note-templates', key: 'noteTemplates', description: 'noteTemplatesDescription' },
  { to: '/admin/users', key: 'users' },
  { to: '/admin/settings', key: 'settings' },
  { to: '/admin/fee-schedule', key: 'feeSchedule', description: 'feeScheduleDescription' },
  { to: '/admin/documents', key: 'documents', description: 'documentsDescription' },
  { to: '/admin/reports', key: 'reports' },
  { to: '/admin/security', key: 'security' },
  { to: '/admin/data', key: 'data' },
  { to: '/admin/health', key: 'health' },
] as const;

/**
 * `/admin`: System Administration. One block after another, each its own component: the figures, the
 * administrators' links, the recent activity. A new block (an alert, say) is one more line here.
 */
function AdminConsoleRoute() {
  const { t } = useTranslation('access-review');
  usePageTitle(t('console.title'));
  return (
    <Stack gap="xl" maw={1100}>
      <Stack gap={4}>
        <Title order={1}>{t('console.title')}</Title>
        <Text c="dimmed">{t('console.intro')}</Text>
      </Stack>
      {/* Emergency access: a live alert of the uses awaiting review (decision 036). */}
      <EmergencyAccessAlert />
      <ConsoleStatsCards />
      <ConsoleLinks />
      <RecentActivity />
    </Stack>
  );
}

/** The administrators' screens. */
function ConsoleLinks() {
  const { t } = useTranslation(['access-review', 'admin-console']);
  return (
    <Stack gap="sm" component="section" aria-labelledby="console-links-heading">
      <Title order={2} size="h3" id="console-links-heading">
        {t('admin-console:links.heading')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {LINKS.map((link) => (
          <Paper component="li" withBorder p="md" key={link.to}>
            <Anchor component={Link} to={link.to} fw={600}>
              {t(`console.${link.key}`)}
            </Anchor>
            {'description' in link ? (
              <Text size="sm" c="dimmed">
                {t(`console.${link.description}`)}
              </Text>
            ) : null}
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export { AdminConsoleRoute as Component };
