import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { consoleStatsQueryOptions, type ConsoleStats } from '../api/admin-console-api.ts';
import { formatAgo, formatDateTime } from '../utils/format.ts';
import { useAuditEventName } from '../../../components/audit-event-name.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';

const KNOWN_ROLES = ['admin', 'provider', 'patient', 'system', 'unknown'] as const;

/**
 * The newest entries of the audit trail: the event by name, who (a staff member by name; a patient, the system or a
 * visitor only as such) and when. No details and no patient: nothing of anyone's health on this screen.
 */
export function RecentActivity() {
  const { t } = useTranslation('admin-console');
  // The same answer as the stats cards (one request for the console).
  const stats = useQuery(consoleStatsQueryOptions());
  return (
    <Stack gap="sm" component="section" aria-labelledby="console-activity-heading">
      <Stack gap={2}>
        <Title order={2} size="h3" id="console-activity-heading">
          {t('activity.heading')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('activity.intro')}
        </Text>
      </Stack>
      {stats.isPending ? (
        <LoadingLine label={t('activity.loading')} />
      ) : stats.isError ? null : stats.data.recentActivity.length === 0 ? (
        <Text>{t('activity.empty')}</Text>
      ) : (
        <Paper withBorder component="ol" p={0} m={0} style={{ listStyle: 'none' }} data-testid="recent-activity">
          {stats.data.recentActivity.map((item, index) => (
            <ActivityRow key={`${item.at}-${index}`} item={item} first={index === 0} />
          ))}
        </Paper>
      )}
    </Stack>
  );
}

function ActivityRow({ item, first }: { item: ConsoleStats['recentActivity'][number]; first: boolean }) {
  const { t, i18n } = useTranslation('admin-console');
  const eventName = useAuditEventName();
  const role = (KNOWN_ROLES as readonly string[]).includes(item.actorRole)
    ? t(`role.${item.actorRole as (typeof KNOWN_ROLES)[number]}`)
    : item.actorRole;
  const who = item.actorName ? `${item.actorName} (${role})` : role;
  return (
    <li
      style={{
        padding: 'var(--mantine-spacing-sm) var(--mantine-spacing-md)',
        borderTop: first ? undefined : '1px solid var(--mantine-color-gray-3)',
      }}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <strong>{eventName(item.event)}</strong> · {who}
        </Text>
        <Text size="sm" c="dimmed" component="time" dateTime={item.at} title={formatDateTime(item.at, i18n.language)}>
          {formatAgo(item.at, i18n.language)}
        </Text>
      </Group>
    </li>
  );
}
