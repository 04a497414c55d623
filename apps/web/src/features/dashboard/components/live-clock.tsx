import { Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { IconClock } from '../../../components/icons.tsx';
import { useNow } from '../../../hooks/use-now.ts';

/** Today's date and the time, refreshed every second (not a live region: it would be read out each second). */
export function LiveClock() {
  const { t, i18n } = useTranslation('dashboard');
  const now = useNow();
  const formats = useMemo(
    () => ({
      date: new Intl.DateTimeFormat(i18n.language, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
      time: new Intl.DateTimeFormat(i18n.language, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    }),
    [i18n.language],
  );
  const date = new Date(now);

  return (
    <Paper withBorder px="md" py="sm" aria-label={t('clockLabel')} role="group">
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
          <IconClock size={22} />
        </ThemeIcon>
        <Stack gap={0}>
          <Text
            component="time"
            dateTime={date.toISOString()}
            fw={700}
            fz="xl"
            style={{ fontVariantNumeric: 'tabular-nums' }}
          >
            {formats.time.format(date)}
          </Text>
          <Text size="sm" c="dimmed">
            {formats.date.format(date)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
