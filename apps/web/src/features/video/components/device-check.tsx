import { Alert, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { checkIceServers, followAudioLevel, playTestTone, type CheckVerdict } from '../lib/media.ts';
import { checkSignalling } from '../lib/signalling-check.ts';
import { DeviceSelect, useMediaDevices } from './device-select.tsx';
import { LocalVideo } from './video-tile.tsx';

export interface DeviceCheckProps {
  stream: MediaStream | null;
  mediaError: string | null;
  onRequestMedia: () => void;
  onSelectDevice: (kind: 'audioinput' | 'videoinput', deviceId: string) => void;
  /** The STUN/TURN servers to test (from a token request). */
  getIceServers: () => Promise<RTCIceServer[]>;
}

type Verdict = CheckVerdict | 'checking' | null;

/**
 * Before joining: the camera's picture, the microphone's level, a tone for the speakers, the choice of devices,
 * and a test of the video server and of the STUN/TURN servers, each with a plain verdict and what to do.
 */
export function DeviceCheck({ stream, mediaError, onRequestMedia, onSelectDevice, getIceServers }: DeviceCheckProps) {
  const { t } = useTranslation('video');
  const [level, setLevel] = useState(0);
  const devices = useMediaDevices(stream);
  const [signalling, setSignalling] = useState<Verdict>(null);
  const [ice, setIce] = useState<{ stun: Verdict; turn: Verdict }>({ stun: null, turn: null });

  useEffect(() => {
    if (!stream) return;
    return followAudioLevel(stream, setLevel);
  }, [stream]);

  const runNetwork = async () => {
    setSignalling('checking');
    setIce({ stun: 'checking', turn: 'checking' });
    setSignalling((await checkSignalling()) ? 'ok' : 'failed');
    try {
      setIce(await checkIceServers(await getIceServers()));
    } catch {
      setIce({ stun: 'failed', turn: 'failed' });
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('devices.heading')}
        </Title>
        {mediaError ? (
          <Alert color="red" role="alert">
            {mediaError}
          </Alert>
        ) : null}
        {!stream ? (
          <Button variant="light" onClick={onRequestMedia} style={{ alignSelf: 'flex-start' }}>
            {t('devices.start')}
          </Button>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <LocalVideo stream={stream} label={t('devices.preview')} />
            <Stack gap="xs">
              <DeviceSelect
                kind="videoinput"
                label={t('devices.camera')}
                devices={devices}
                stream={stream}
                onChange={onSelectDevice}
              />
              <DeviceSelect
                kind="audioinput"
                label={t('devices.microphone')}
                devices={devices}
                stream={stream}
                onChange={onSelectDevice}
              />
              <Text size="sm" id="mic-level-label">
                {t('devices.level')}
              </Text>
              <Progress.Root>
                <Progress.Section value={Math.round(level * 100)} aria-labelledby="mic-level-label" />
              </Progress.Root>
              <Text size="xs" c="dimmed">
                {t('devices.speak')}
              </Text>
              <Group gap="xs">
                <Button variant="default" size="xs" onClick={() => void playTestTone()}>
                  {t('devices.playSound')}
                </Button>
                <Text size="xs" c="dimmed">
                  {t('devices.soundHint')}
                </Text>
              </Group>
            </Stack>
          </SimpleGrid>
        )}
        <Group gap="xs" align="center">
          <Text fw={600} size="sm">
            {t('devices.network')}
          </Text>
          <Button variant="default" size="xs" onClick={() => void runNetwork()} loading={signalling === 'checking'}>
            {t('devices.runNetwork')}
          </Button>
        </Group>
        {signalling ? (
          <Stack gap={4} aria-live="polite">
            <VerdictLine label={t('devices.signalling')} verdict={signalling} hint={t('devices.signallingFailed')} />
            <VerdictLine label={t('devices.stun')} verdict={ice.stun} hint={t('devices.stunFailed')} />
            <VerdictLine label={t('devices.turn')} verdict={ice.turn} hint={t('devices.turnFailed')} />
            {ice.stun === 'not-configured' && ice.turn === 'not-configured' ? (
              <Text size="xs" c="dimmed">
                {t('devices.noServers')}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

function VerdictLine({ label, verdict, hint }: { label: string; verdict: Verdict; hint: string }) {
  const { t } = useTranslation('video');
  if (verdict === null) return null;
  const text =
    verdict === 'checking'
      ? t('devices.checking')
      : verdict === 'ok'
        ? t('devices.ok')
        : verdict === 'failed'
          ? t('devices.failed')
          : t('devices.notConfigured');
  const color = verdict === 'ok' ? '#1b5e20' : verdict === 'failed' ? '#a51d1d' : '#3d3d3d';
  return (
    <div>
      <Text size="sm">
        {label}:{' '}
        <Text span fw={600} c={color} data-verdict={verdict}>
          {text}
        </Text>
      </Text>
      {verdict === 'failed' ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </div>
  );
}

/** A few seconds of the provider's own camera and microphone, recorded and played back here only. */
export function TestRecording({ stream }: { stream: MediaStream | null }) {
  const { t } = useTranslation('video');
  const [seconds, setSeconds] = useState<number | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (typeof MediaRecorder === 'undefined') return <Text size="sm">{t('testRecording.unsupported')}</Text>;

  const record = () => {
    if (!stream) return;
    const chunks: Blob[] = [];
    const r = new MediaRecorder(stream);
    recorder.current = r;
    r.addEventListener('dataavailable', (e) => chunks.push(e.data));
    r.addEventListener('stop', () => {
      setUrl(URL.createObjectURL(new Blob(chunks, { type: r.mimeType })));
      setSeconds(null);
    });
    setUrl(null);
    r.start();
    let left = 5;
    setSeconds(left);
    const timer = setInterval(() => {
      left -= 1;
      setSeconds(left);
      if (left <= 0) {
        clearInterval(timer);
        r.stop();
      }
    }, 1000);
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('testRecording.heading')}
        </Title>
        <Text size="sm">{t('testRecording.body')}</Text>
        <Button
          variant="default"
          onClick={record}
          disabled={!stream || seconds !== null}
          style={{ alignSelf: 'flex-start' }}
        >
          {seconds !== null
            ? t('testRecording.recording', { seconds })
            : url
              ? t('testRecording.again')
              : t('testRecording.start')}
        </Button>
        {url ? (
          <video src={url} controls aria-label={t('testRecording.playback')} style={{ width: '100%', maxWidth: 360 }} />
        ) : null}
      </Stack>
    </Paper>
  );
}
