import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useEmergencyAwaitingCount } from '../api/emergency-access-api.ts';

/** The console's live alert: how many uses of emergency access wait for review, with the way to review them. */
export function EmergencyAccessAlert() {
  const { t } = useTranslation('emergency-access');
  const count = useEmergencyAwaitingCount();
  const waiting = (count.data ?? 0) > 0;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      style={waiting ? { borderColor: 'var(--mantine-color-red-7)', borderWidth: 2 } : undefined}
      data-testid="emergency-access-alert"
    >
      <Stack gap={4}>
        <Title order={2} size="h4">
          {t('console.title')} {count.data !== undefined ? `(${count.data})` : ''}
        </Title>
        <Text size="sm" role="status" aria-live="polite" c={count.isError ? 'red.8' : undefined}>
          {count.isError
            ? t('console.loadError')
            : count.data === undefined
              ? ''
              : waiting
                ? t('console.count', { count: count.data })
                : t('console.none')}
        </Text>
        <Anchor component={Link} to="/admin/security?tab=emergency" fw={600}>
          {t('console.review')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
