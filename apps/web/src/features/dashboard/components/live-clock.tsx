import { Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { IconClock } from '../../../components/icons.tsx';
import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { useNow } from '../../../hooks/use-now.ts';
import { formatClinicLongDate, formatClinicTime } from '../../../lib/practice-dates.ts';

/**
 * Today's date and the time at the practice, refreshed every second, with the practice's zone named when the device
 * is elsewhere (decision 050). Not a live region: it would be read out each second.
 */
export function LiveClock() {
  const { t } = useTranslation('dashboard');
  const clinic = useClinicZone();
  const now = useNow();
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
            data-testid="clock-time"
          >
            {formatClinicTime(date, clinic, { seconds: true })}
          </Text>
          <Text size="sm" c="dimmed">
            {formatClinicLongDate(date, clinic)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
