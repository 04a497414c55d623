import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { EmergencyGrant } from '../api/emergency-access-api.ts';
import { EmergencyAccessDialog } from './emergency-access-dialog.tsx';

/**
 * Where a provider is refused a patient (the chart's "not found", with `patientId`) or looks for one they do not
 * see (the patient list, without): the way to emergency access, behind its reason dialog.
 */
export function EmergencyAccessOffer({
  patientId,
  onGranted,
}: {
  patientId?: string;
  onGranted?: (grant: EmergencyGrant) => void;
}) {
  const { t } = useTranslation('emergency-access');
  const [opened, setOpened] = useState(false);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs" align="flex-start">
        <Title order={2} size="h4">
          {t('offer.title')}
        </Title>
        <Text size="sm">{patientId ? t('offer.body') : t('offer.bodyIdentity')}</Text>
        <Button color="red" variant="outline" onClick={() => setOpened(true)}>
          {t('offer.button')}
        </Button>
      </Stack>
      <EmergencyAccessDialog
        opened={opened}
        onClose={() => setOpened(false)}
        {...(patientId ? { patientId } : {})}
        {...(onGranted ? { onGranted } : {})}
      />
    </Paper>
  );
}
