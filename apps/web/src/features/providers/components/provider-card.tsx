import { Alert, Anchor, Avatar, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck, IconMail, IconPhone } from '../../../components/icons.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useSpecialtyLabel } from '../../../hooks/use-specialty-label.ts';
import { describeError } from '../../../lib/errors.ts';
import { invitationLinkState } from '../../../lib/invitation-state.ts';
import { telHref } from '../../../lib/tel-href.ts';
import { useSendProviderInvitation, type Doctor } from '../api/providers-api.ts';

/** Dark amber on yellow-0: 7:1, like the status badge's text. */
const PENDING_TEXT = '#7a4b00';

/**
 * One provider: name, specialty, experience, contact, a short biography and whether they are active. With
 * `canManage` (administrators), a provider who has not set a password yet shows "Invitation pending" and
 * "Send invitation"; the server checks the role again on every call.
 */
export function ProviderCard({
  provider,
  canManage = false,
  actions,
}: {
  provider: Doctor;
  canManage?: boolean;
  /** More actions, below the card's own. */
  actions?: ReactNode;
}) {
  const { t } = useTranslation('providers');
  const specialtyLabel = useSpecialtyLabel();
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
                {specialtyLabel(provider.specialty)}
              </Badge>
              <StatusBadge active={provider.isActive} label={provider.isActive ? t('active') : t('inactive')} />
              {canManage && provider.invitationPending ? (
                <Badge
                  variant="light"
                  radius="sm"
                  style={{
                    flexShrink: 0,
                    '--badge-bg': 'var(--mantine-color-yellow-0)',
                    '--badge-color': PENDING_TEXT,
                  }}
                >
                  {t('invitation.pending')}
                </Badge>
              ) : null}
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
              <Anchor href={telHref(provider.phone)} size="sm">
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

        {canManage && provider.invitationPending ? <InvitationActions provider={provider} /> : null}
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Stack>
    </Card>
  );
}

function InvitationActions({ provider }: { provider: Doctor }) {
  const { t, i18n } = useTranslation('providers');
  const send = useSendProviderInvitation();
  const link = invitationLinkState(provider.invitationExpiresAt, i18n.language);

  const onSend = () => {
    if (send.isPending) return;
    send.mutate(provider, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          icon: <IconCheck size={18} />,
          title: t('invitation.sentTitle'),
          message: t('invitation.sent', { email: provider.email }),
          closeButtonProps: { 'aria-label': t('closeNotification') },
        });
      },
    });
  };

  return (
    <Stack gap={6}>
      <Text size="sm" c="dimmed">
        {link.state === 'open'
          ? t('invitation.open', { date: link.date })
          : link.state === 'expired'
            ? t('invitation.expired', { date: link.date })
            : t('invitation.none')}
      </Text>
      {send.isError ? (
        <Alert color="red" variant="light" role="alert" p="xs">
          {t('invitation.failed', { message: describeError(send.error) })}
        </Alert>
      ) : null}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconMail size={14} />}
          onClick={onSend}
          loading={send.isPending}
        >
          {t('invitation.send')}
        </Button>
      </Group>
    </Stack>
  );
}
