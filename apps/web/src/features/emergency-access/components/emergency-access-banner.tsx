import { Alert, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useEndEmergencyAccess, useMyEmergencyAccess } from '../api/emergency-access-api.ts';
import { formatClockTime } from '../utils/format.ts';

/**
 * Marks every screen of a record opened with emergency access (decision 036): when it ends, and that every action
 * is recorded. At the end time everything is read again, so the record closes by itself. Renders nothing without
 * an access in force (or for a role that cannot break the glass: `enabled` false).
 */
export function EmergencyAccessBanner({ patientId, enabled }: { patientId: string; enabled: boolean }) {
  const { t, i18n } = useTranslation('emergency-access');
  const queryClient = useQueryClient();
  const grant = useMyEmergencyAccess(patientId, enabled);
  const end = useEndEmergencyAccess();
  const endsAt = grant.data?.endsAt;
  useEffect(() => {
    if (!endsAt) return;
    const timer = setTimeout(
      () => void queryClient.invalidateQueries(),
      Math.max(Date.parse(endsAt) - Date.now(), 0) + 500,
    );
    return () => clearTimeout(timer);
  }, [endsAt, queryClient]);
  if (!grant.data) return null;
  return (
    <Alert
      color="red"
      variant="light"
      role="status"
      aria-label={t('banner.title')}
      data-testid="emergency-access-banner"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" fw={600}>
          {t('banner.body', { time: formatClockTime(grant.data.endsAt, i18n.language) })}
        </Text>
        <Button
          size="xs"
          variant="default"
          loading={end.isPending}
          onClick={() => grant.data && end.mutate(grant.data.id)}
        >
          {t('banner.end')}
        </Button>
      </Group>
    </Alert>
  );
}
