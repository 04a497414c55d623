import { Button, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { ProviderBillingForm } from './provider-billing-form.tsx';

/** The "Billing identity" card of a provider's own account. */
export function ProviderBillingCard({ providerId }: { providerId: string }) {
  const { t } = useTranslation('billing-setup');
  const headingId = useId();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {t('providerBilling.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('providerBilling.intro')}
        </Text>
        <ProviderBillingForm providerId={providerId} />
      </Stack>
    </Paper>
  );
}

/** An administrator's button on a provider: their billing identity, viewed and changed in a dialog. */
export function ProviderBillingButton({ providerId, name }: { providerId: string; name: string }) {
  const { t } = useTranslation('billing-setup');
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" size="xs" onClick={open} aria-label={t('providerBilling.openNamed', { name })}>
        {t('providerBilling.open')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('providerBilling.titleNamed', { name })}
        size="lg"
        closeButtonProps={{ 'aria-label': t('providerBilling.close') }}
      >
        {opened ? <ProviderBillingForm providerId={providerId} /> : null}
      </Modal>
    </>
  );
}
