import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { VideoPeer } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The provider's list of people in the waiting room: let each in, or send them a short message. */
export function WaitingList({
  waiting,
  onAdmit,
  onNotice,
}: {
  waiting: VideoPeer[];
  onAdmit: (peerId: string) => void;
  onNotice: (peerId: string, text: string) => boolean;
}) {
  const { t } = useTranslation('video');
  return (
    <Paper withBorder p="md" radius="md" aria-labelledby="waiting-list-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="waiting-list-heading">
          {t('waitingList.heading')}
        </Title>
        {waiting.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('waitingList.empty')}
          </Text>
        ) : (
          waiting.map((peer) => <WaitingPerson key={peer.peerId} peer={peer} onAdmit={onAdmit} onNotice={onNotice} />)
        )}
      </Stack>
    </Paper>
  );
}

function WaitingPerson({
  peer,
  onAdmit,
  onNotice,
}: {
  peer: VideoPeer;
  onAdmit: (peerId: string) => void;
  onNotice: (peerId: string, text: string) => boolean;
}) {
  const { t } = useTranslation('video');
  const [text, setText] = useState('');
  const [sent, setSent] = useState(false);
  return (
    <Stack gap={6} data-testid="waiting-person">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600}>
          {peer.name}{' '}
          <Text span size="sm" c="dimmed">
            ({peer.role === 'guest' ? t('waitingList.guest') : t('waitingList.patient')})
          </Text>
        </Text>
        <Button size="xs" onClick={() => onAdmit(peer.peerId)}>
          {t('waitingList.admit')}
        </Button>
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const trimmed = text.trim();
          if (trimmed && onNotice(peer.peerId, trimmed.slice(0, 300))) {
            setText('');
            setSent(true);
          }
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            size="xs"
            style={{ flex: 1 }}
            label={t('waitingList.messageLabel', { name: peer.name })}
            value={text}
            maxLength={300}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setSent(false);
            }}
          />
          <Button size="xs" variant="default" type="submit">
            {t('waitingList.send')}
          </Button>
        </Group>
        {sent ? (
          <Text size="xs" role="status">
            {t('waitingList.sent')}
          </Text>
        ) : null}
      </form>
    </Stack>
  );
}
