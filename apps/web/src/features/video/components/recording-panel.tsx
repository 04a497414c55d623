import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { RecordingState } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import type { VideoCallSession } from '../lib/video-call-session.ts';

/**
 * The specification's recording panel with its rules made real: the provider asks; everyone in the call sees
 * the request with the notice and answers; a red indicator while recording; anyone can withdraw, which stops it.
 * Nothing for the patient or a guest until the provider asks.
 */
export function RecordingPanel({
  session,
  recording,
  selfPeerId,
  isProvider,
}: {
  session: VideoCallSession;
  recording: RecordingState | null;
  selfPeerId: string | null;
  isProvider: boolean;
}) {
  const { t } = useTranslation('video');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const active = recording && ['asking', 'recording', 'paused'].includes(recording.status);
  const mine = recording?.consents.find((c) => c.peerId === selfPeerId)?.decision ?? null;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  // The patient (or a guest) sees a recording only when there is one to answer or to know of.
  if (!isProvider && !recording) return null;

  return (
    <Paper withBorder p="md" radius="md" aria-labelledby="recording-heading">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h5" id="recording-heading">
            {t('recording.heading')}
          </Title>
          {recording?.status === 'recording' ? (
            <Badge color="red" variant="filled" role="status" data-testid="recording-indicator">
              ● {t('recording.on')}
            </Badge>
          ) : recording?.status === 'paused' ? (
            <Badge color="gray" variant="filled" role="status">
              {t('recording.paused')}
            </Badge>
          ) : null}
        </Group>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        {active && mine === 'pending' ? (
          <Alert color="blue" title={t('recording.askTitle')} data-testid="recording-consent">
            <Stack gap="xs">
              <Text size="sm">{t('recording.notice')}</Text>
              <Group gap="xs">
                <Button size="xs" onClick={() => session.consentToRecording(true)}>
                  {t('recording.agree')}
                </Button>
                <Button size="xs" variant="default" onClick={() => session.consentToRecording(false)}>
                  {t('recording.decline')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
        {active ? (
          <List size="sm" spacing={2} aria-label={t('recording.answers')}>
            {recording.consents.map((c) => (
              <List.Item key={c.peerId}>
                {c.name}: {t(`recording.decision.${c.decision}`)}
              </List.Item>
            ))}
          </List>
        ) : null}
        {recording?.status === 'refused' ? <Text size="sm">{t('recording.refused')}</Text> : null}
        {recording?.status === 'stopped' ? <Text size="sm">{t('recording.stopped')}</Text> : null}
        <Group gap="xs" wrap="wrap">
          {isProvider && !active ? (
            <Button
              size="xs"
              variant="default"
              loading={busy}
              onClick={() => void run(() => session.requestRecording())}
            >
              {t('recording.start')}
            </Button>
          ) : null}
          {isProvider && active ? (
            <Button size="xs" color="red" loading={busy} onClick={() => void run(() => session.stopRecording())}>
              {t('recording.stop')}
            </Button>
          ) : null}
          {!isProvider && active && mine === 'yes' ? (
            <Button size="xs" variant="default" onClick={() => session.consentToRecording(false)}>
              {t('recording.withdraw')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
