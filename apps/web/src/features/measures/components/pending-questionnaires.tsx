import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useMyQuestionnaires } from '../api/measures-api.ts';
import { formatInstantDate } from '../../../lib/practice-dates.ts';

/**
 * The patient's dashboard: questionnaires waiting to be filled in (nothing when there are none; with `showEmpty`,
 * My Records, a line saying so).
 */
export function PendingQuestionnaires({ showEmpty = false }: { showEmpty?: boolean }) {
  const { t, i18n } = useTranslation('measures');
  const mine = useMyQuestionnaires();
  if (mine.isError) {
    return (
      <Alert color="red" variant="light">
        {t('pending.loadFailed')}
      </Alert>
    );
  }
  if (!mine.data || (mine.data.length === 0 && !showEmpty)) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="pending-questionnaires">
      <Stack gap="sm">
        <Title order={2} size="h3" id="pending-questionnaires">
          {t('pending.title')}
        </Title>
        <Text size="sm">{mine.data.length === 0 ? t('pending.none') : t('pending.intro')}</Text>
        {mine.data.map((q) => (
          <Group key={q.id} justify="space-between" wrap="wrap" gap="xs">
            <div>
              <Text fw={600}>{t(`instrument.${q.instrument}`)}</Text>
              <Text size="sm" c="dimmed">
                {t('pending.sentOn', { date: formatInstantDate(q.createdAt, i18n.language) })}
              </Text>
            </div>
            <Button
              component={Link}
              to={`/questionnaires/${q.id}`}
              aria-label={t('pending.startNamed', { name: t(`instrument.${q.instrument}`) })}
            >
              {t('pending.start')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
