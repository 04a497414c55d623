import { Box, Card, Code, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { CurrentUser } from '@telehealth/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { IconBug } from '../../../components/icons.tsx';

/**
 * Demo mode only: who the server says is signed in. The specification's link to /test (API Test) is left out:
 * that screen does not exist in this product.
 */
export function DebugPanel({ user, version }: { user: CurrentUser; version: string | undefined }) {
  const { t } = useTranslation('dashboard');
  const headingId = useId();
  const rows = [
    { label: t('debug.name'), value: user.name },
    { label: t('debug.role'), value: user.role },
    { label: t('debug.source'), value: user.source },
    ...(version ? [{ label: t('debug.version'), value: version }] : []),
  ];
  return (
    <Card component="section" aria-labelledby={headingId} shadow="xs">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="gray" size={36} radius="md" aria-hidden>
            <IconBug size={20} />
          </ThemeIcon>
          <Title order={2} size="h5" id={headingId}>
            {t('debug.title')}
          </Title>
        </Group>
        <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 16px' }}>
          {rows.map((row) => (
            <DebugRow key={row.label} label={row.label} value={row.value} />
          ))}
        </Box>
      </Stack>
    </Card>
  );
}

function DebugRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Text component="dt" size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0}>
        <Code>{value}</Code>
      </Text>
    </>
  );
}
