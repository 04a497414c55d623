import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { IconShield } from '../../../components/icons.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { useTwoFactorStatus } from '../api/two-factor-api.ts';
import { DisableTwoFactorModal } from './disable-two-factor-modal.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { TotpSetupPanel } from './totp-setup-panel.tsx';

type Mode = { name: 'status' } | { name: 'setup' } | { name: 'codes'; codes: string[] };

/** `/account/security`: the signed-in person's two-factor sign-in: its state, setting it up, turning it off. */
export function SecurityScreen() {
  const { t } = useTranslation('security');
  usePageTitle(t('title'));
  const status = useTwoFactorStatus();
  const [mode, setMode] = useState<Mode>({ name: 'status' });
  const [disableOpened, disableModal] = useDisclosure(false);

  let card;
  if (status.isPending) {
    card = (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t('loading')}</Text>
      </Group>
    );
  } else if (status.isError) {
    card = (
      <Alert color="red" variant="light" role="alert" title={t('loadFailed')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{describeError(status.error)}</Text>
          <Button
            variant="default"
            onClick={() => {
              void status.refetch();
            }}
          >
            {t('tryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    const { enabled, recoveryCodesRemaining } = status.data;
    card = (
      <Stack gap="sm">
        <Group gap="sm">
          <Text fw={600}>{t('statusLabel')}</Text>
          <Badge color={enabled ? 'clinical.8' : 'gray.7'} variant="filled">
            {enabled ? t('on') : t('off')}
          </Badge>
        </Group>
        <Text size="sm">{enabled ? t('onBody') : t('offBody')}</Text>
        {enabled ? (
          <Text size="sm" c={recoveryCodesRemaining <= 2 ? 'red.9' : 'dimmed'}>
            {t('codesLeft', { count: recoveryCodesRemaining })}
          </Text>
        ) : null}
        {mode.name === 'status' ? (
          <Group>
            {enabled ? (
              <Button variant="outline" color="red.9" onClick={disableModal.open}>
                {t('turnOff')}
              </Button>
            ) : (
              <Button
                onClick={() => {
                  setMode({ name: 'setup' });
                }}
              >
                {t('setUp')}
              </Button>
            )}
          </Group>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={680}>
      <Group gap="sm" wrap="nowrap">
        <IconShield size={28} />
        <Title order={1}>{t('title')}</Title>
      </Group>
      <Card withBorder padding="lg" component="section" aria-labelledby="two-factor-heading">
        <Stack gap="md">
          <Title order={2} size="h3" id="two-factor-heading">
            {t('twoFactorHeading')}
          </Title>
          {card}
        </Stack>
      </Card>
      {mode.name === 'setup' ? (
        <TotpSetupPanel
          onCancel={() => {
            setMode({ name: 'status' });
          }}
          onConfirmed={(codes) => {
            setMode({ name: 'codes', codes });
          }}
        />
      ) : null}
      {mode.name === 'codes' ? (
        <RecoveryCodesPanel
          codes={mode.codes}
          onDone={() => {
            setMode({ name: 'status' });
          }}
        />
      ) : null}
      <DisableTwoFactorModal opened={disableOpened} onClose={disableModal.close} />
    </Stack>
  );
}
