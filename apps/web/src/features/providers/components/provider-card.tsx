import { Anchor, Avatar, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { IconMail, IconPhone } from '../../../components/icons.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { Doctor } from '../api/providers-api.ts';

/** One provider: name, specialty, experience, contact, a short biography and whether they are active. */
export function ProviderCard({ provider }: { provider: Doctor }) {
  const { t } = useTranslation('providers');
  const name = `${provider.firstName} ${provider.lastName}`;
  const initials = `${provider.firstName.charAt(0)}${provider.lastName.charAt(0)}`.toUpperCase();

  return (
    <Card component="article" shadow="xs" aria-label={name} h="100%">
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <Avatar size="lg" radius="xl" color={provider.isActive ? 'clinical' : 'gray'} aria-hidden>
            {initials}
          </Avatar>
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Text component="h2" fw={650} fz="lg" lh={1.3} m={0}>
              {name}
            </Text>
            <Group gap={6}>
              <Badge variant="light" radius="sm" c="clinical.9">
                {provider.specialty}
              </Badge>
              <StatusBadge active={provider.isActive} label={provider.isActive ? t('active') : t('inactive')} />
            </Group>
            <Text size="sm" c="dimmed">
              {t('experience', { count: provider.experience })}
            </Text>
          </Stack>
        </Group>

        <Stack gap={6}>
          <Group gap="xs" wrap="nowrap">
            <IconMail size={16} style={{ flexShrink: 0, color: 'var(--mantine-color-dimmed)' }} />
            <Anchor href={`mailto:${provider.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {provider.email}
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <IconPhone size={16} style={{ flexShrink: 0, color: 'var(--mantine-color-dimmed)' }} />
            {provider.phone ? (
              <Anchor href={`tel:${provider.phone.replace(/[^\d+]/g, '')}`} size="sm">
                {provider.phone}
              </Anchor>
            ) : (
              <Text size="sm" c="dimmed">
                {t('noPhone')}
              </Text>
            )}
          </Group>
        </Stack>

        {provider.bio ? (
          <Text size="sm" c="dark.6" lineClamp={5} style={{ whiteSpace: 'pre-line' }}>
            {provider.bio}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
