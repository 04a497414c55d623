import { Alert, Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatClinicDateTime } from '../../../lib/practice-dates.ts';
import { useConversations, useMessagesLiveRefresh } from '../api/messages-api.ts';

/**
 * The chart's panel of the conversations about this patient that the caller reaches (the care team's clinical
 * ones; for administrators, the office's), each a link to its thread in /messages.
 */
export function PatientConversationsPanel({ patientId }: { patientId: string }) {
  const { t } = useTranslation('messages');
  const clinic = useClinicZone();
  const conversations = useConversations({ archived: false, search: '', patientId });
  useMessagesLiveRefresh();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="chart-messages-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id="chart-messages-title">
            {t('chart.title')}
          </Title>
          <Anchor component={Link} to="/messages" size="sm">
            {t('chart.all')}
          </Anchor>
        </Group>
        {conversations.isPending ? (
          <LoadingLine label={t('chart.title')} />
        ) : conversations.isError ? (
          <Alert color="red" variant="light">
            {t('loadFailed')}
          </Alert>
        ) : conversations.data.pages[0]?.items.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('chart.empty')}
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {conversations.data.pages
              .flatMap((page) => page.items)
              .map((c) => (
                <li key={c.id}>
                  <Group gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={`/messages?c=${encodeURIComponent(c.id)}`} size="sm" lineClamp={1}>
                      {c.subject}
                    </Anchor>
                    {c.unreadCount > 0 ? (
                      <Badge color="red.8" size="xs" aria-label={t('unreadCount', { count: c.unreadCount })}>
                        {c.unreadCount}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {formatClinicDateTime(c.lastMessageAt, clinic)}
                  </Text>
                </li>
              ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
