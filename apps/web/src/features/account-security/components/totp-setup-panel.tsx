import { Alert, Button, Card, Code, Group, Image, Loader, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { TotpCodeSchema } from '@telehealth/shared';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import { firstIssueText } from '../../../lib/error-text.ts';
import { groupSecret } from '../../../lib/two-factor.ts';
import { useConfirmTotpSetup, useStartTotpSetup } from '../api/two-factor-api.ts';

/**
 * Setting up two-factor from the account menu: a new key as a QR code and as text, confirmed with a code from
 * the app; the recovery codes come back from the confirmation.
 */
export function TotpSetupPanel({
  onCancel,
  onConfirmed,
}: {
  onCancel: () => void;
  onConfirmed: (codes: string[]) => void;
}) {
  const { t } = useTranslation('security');
  const start = useStartTotpSetup();
  const confirm = useConfirmTotpSetup();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const { mutate: startSetup } = start;

  useEffect(() => {
    startSetup();
  }, [startSetup]);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = TotpCodeSchema.safeParse(code);
    if (!parsed.success) {
      setCodeError(firstIssueText(parsed.error));
      inputRef.current?.focus();
      return;
    }
    setCodeError(null);
    confirm.mutate(parsed.data, {
      onSuccess: (confirmation) => {
        onConfirmed(confirmation.recoveryCodes);
      },
      onError: () => {
        setCode('');
        inputRef.current?.focus();
      },
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="totp-setup-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="totp-setup-heading">
          {t('setupHeading')}
        </Title>
        {start.isPending ? (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text>{t('preparing')}</Text>
          </Group>
        ) : null}
        {start.isError ? (
          <Alert color="red" variant="light" role="alert">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{describeError(start.error)}</Text>
              <Group>
                <Button
                  variant="default"
                  onClick={() => {
                    startSetup();
                  }}
                >
                  {t('tryAgain')}
                </Button>
                <Button variant="subtle" onClick={onCancel}>
                  {t('cancel')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
        {start.data ? (
          <>
            <List type="ordered" spacing={4}>
              <List.Item>{t('scanStep')}</List.Item>
              <List.Item>{t('enterStep')}</List.Item>
            </List>
            <Image src={start.data.qr} alt={t('qrAlt')} w={200} h={200} radius="md" bd="1px solid gray.4" />
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('secretLabel')}
              </Text>
              <Code fz="md" p="xs" data-testid="totp-secret" style={{ display: 'block', overflowWrap: 'anywhere' }}>
                {groupSecret(start.data.secret)}
              </Code>
            </Stack>
            {confirm.isError ? (
              <Alert color="red" variant="light" role="alert">
                {describeError(confirm.error)}
              </Alert>
            ) : null}
            <form onSubmit={onSubmit} noValidate aria-labelledby="totp-setup-heading">
              <Stack gap="md">
                <TextInput
                  ref={inputRef}
                  label={t('codeLabel')}
                  name="one-time-code"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  required
                  maw={240}
                  value={code}
                  error={codeError}
                  onChange={(event) => {
                    setCode(event.currentTarget.value);
                    setCodeError(null);
                  }}
                />
                <Group>
                  <Button type="submit" loading={confirm.isPending}>
                    {t('confirmSetup')}
                  </Button>
                  <Button variant="default" onClick={onCancel} disabled={confirm.isPending}>
                    {t('cancel')}
                  </Button>
                </Group>
              </Stack>
            </form>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
