import { Alert, Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { AppConfig } from '../../../lib/auth.ts';
import { useDemoSignIn } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { translateMessage } from '../../../lib/translate-message.ts';

/** One-click sign-in as each seeded demo account; rendered only when the server is in demo mode. */
export function DemoAccounts({ accounts }: { accounts: AppConfig['demoAccounts'] }) {
  const { t } = useTranslation(['auth', 'shared']);
  const headingId = useId();
  const demoSignIn = useDemoSignIn();
  const result = demoSignIn.data;
  const failure = demoSignIn.error
    ? translateMessage(describeError(demoSignIn.error))
    : result && !result.success
      ? result.error
        ? translateMessage(result.error)
        : t('shared:messages.demoModeOff')
      : null;

  if (accounts.length === 0) return null;

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="md" bg="gray.0">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h5" id={headingId}>
            {t('demo.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('demo.description')}
          </Text>
        </div>
        {failure ? (
          <Alert color="red" variant="light" title={t('shared:messages.loginFailed')} role="alert">
            {failure}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          {accounts.map((account) => {
            const pending = demoSignIn.isPending && demoSignIn.variables === account.email;
            return (
              <Button
                key={account.email}
                variant="default"
                size="md"
                h="auto"
                py={8}
                loading={pending}
                disabled={demoSignIn.isPending && !pending}
                onClick={() => {
                  demoSignIn.mutate(account.email);
                }}
                styles={{
                  inner: { justifyContent: 'flex-start' },
                  label: { flexDirection: 'column', alignItems: 'flex-start', whiteSpace: 'normal' },
                }}
              >
                <Text component="span" fw={600} size="sm">
                  {t(`shared:roles.${account.role}`)}
                </Text>
                <Text component="span" size="xs" c="dimmed">
                  {account.email}
                </Text>
              </Button>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
