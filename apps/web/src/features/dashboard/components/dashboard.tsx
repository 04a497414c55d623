import { Badge, Grid, Group, Stack, Text, Title } from '@mantine/core';
import type { CurrentUser, Role } from '@telehealth/shared';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { DebugPanel } from './debug-panel.tsx';
import { DemoRoleSwitcher } from './demo-role-switcher.tsx';
import { LiveClock } from './live-clock.tsx';
import { AdminPanel, PatientPanel, ProviderPanel } from './role-panels.tsx';

/** The specification's dashboard differs by role: its heading, and the links of the role's panel. */
const ROLE_PANELS: Record<Role, ComponentType> = { admin: AdminPanel, provider: ProviderPanel, patient: PatientPanel };

export interface DashboardProps {
  user: CurrentUser;
  demoMode: boolean;
  version: string | undefined;
  /** The role's schedule (today's appointments, My Appointments), composed by the route from its feature. */
  schedule?: ReactNode;
}

/** /dashboard: a heading for the role, a live clock, and what this role can do. */
export function Dashboard({ user, demoMode, version, schedule }: DashboardProps) {
  const { t } = useTranslation(['dashboard', 'shared']);
  const roleLabel = t(`shared:roles.${user.role}`);
  const RolePanel = ROLE_PANELS[user.role];

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-start" gap="lg">
        <Stack gap={6}>
          <Group gap="sm" align="center">
            <Title order={1}>{t(`shared:dashboardHeadings.${user.role}`)}</Title>
            <Badge size="lg" variant="light">
              {roleLabel}
            </Badge>
          </Group>
          <Text c="dimmed" size="lg">
            {t('welcome', { name: user.name })}
          </Text>
        </Stack>
        <LiveClock />
      </Group>

      <RolePanel />

      {schedule}

      {demoMode ? (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <DemoRoleSwitcher currentRole={user.role} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <DebugPanel user={user} version={version} />
          </Grid.Col>
        </Grid>
      ) : null}
    </Stack>
  );
}
