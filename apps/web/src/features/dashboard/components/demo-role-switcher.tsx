import { Alert, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { DEMO_ACCOUNTS, type Role } from '@telehealth/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { IconSwitch } from '../../../components/icons.tsx';
import { useDemoSignIn } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';

const SWITCHES = [
  { role: 'admin', labelKey: 'demo.switchToAdmin' },
  { role: 'provider', labelKey: 'demo.switchToProvider' },
  { role: 'patient', labelKey: 'demo.switchToPatient' },
] as const satisfies readonly { role: Role; labelKey: string }[];

/** The first seeded demo account of a role (admin@demo.test, provider@demo.test, patient@demo.test). */
export function demoEmailFor(role: Role): string | undefined {
  return DEMO_ACCOUNTS.find((account) => account.role === role)?.email;
}

/**
 * Demo mode only: signs in as the demo account of another role. The server ends the current session first;
 * the dashboard then shows the new role in place.
 */
export function DemoRoleSwitcher({ currentRole }: { currentRole: Role }) {
  const { t } = useTranslation(['dashboard', 'shared']);
  const headingId = useId();
  const demoSignIn = useDemoSignIn();
  const result = demoSignIn.data;
  const failure = demoSignIn.error
    ? describeError(demoSignIn.error)
    : result && !result.success
      ? (result.error ?? t('shared:messages.demoModeOff'))
      : null;

  return (
    <Card component="section" aria-labelledby={headingId} shadow="xs">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={36} radius="md" aria-hidden>
            <IconSwitch size={20} />
          </ThemeIcon>
          <Title order={2} size="h5" id={headingId}>
            {t('demo.title')}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('demo.description')}
        </Text>
        {failure ? (
          <Alert color="red" variant="light" title={t('demo.switchFailed')} role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group gap="sm">
          {SWITCHES.map(({ role, labelKey }) => {
            const email = demoEmailFor(role);
            if (!email) return null;
            const pending = demoSignIn.isPending && demoSignIn.variables === email;
            return (
              <Button
                key={role}
                variant={role === currentRole ? 'light' : 'default'}
                loading={pending}
                disabled={demoSignIn.isPending && !pending}
                onClick={() => {
                  demoSignIn.mutate(email);
                }}
              >
                {t(labelKey)}
              </Button>
            );
          })}
        </Group>
      </Stack>
    </Card>
  );
}
