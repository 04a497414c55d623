import { Alert, Button, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { CallSnapshot, VideoCallSession } from '../lib/video-call-session.ts';
import { DeviceSelect, useMediaDevices } from './device-select.tsx';
import { GuestInvite } from './guest-invite.tsx';
import { RecordingPanel } from './recording-panel.tsx';
import { LocalVideo, RemoteVideo } from './video-tile.tsx';
import { WaitingList } from './waiting-list.tsx';

/**
 * The call: the others' pictures, one's own, the controls (microphone, camera, devices, screen sharing for the
 * provider, End Call), the waiting room for the provider, and the debug panel in demo mode.
 */
export function InCall({
  session,
  snapshot,
  isProvider,
  room,
  appointmentId,
  debug,
}: {
  session: VideoCallSession;
  snapshot: CallSnapshot;
  isProvider: boolean;
  room: string;
  appointmentId: string;
  debug: boolean;
}) {
  const { t } = useTranslation('video');
  const devices = useMediaDevices(session.localStream);
  const selfName = snapshot.self?.name ?? '';
  const changeDevice = (kind: 'audioinput' | 'videoinput', deviceId: string) => void session.useDevice(kind, deviceId);

  return (
    <Stack gap="md">
      {snapshot.signalling === 'reconnecting' ? (
        <Alert color="yellow" role="status">
          {t('call.signallingLost')}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: isProvider ? 3 : 2 }} spacing="md">
        <Stack gap="sm" style={{ gridColumn: isProvider ? 'span 2' : undefined }}>
          {snapshot.participants.length === 0 ? (
            <Paper withBorder p="xl" radius="md">
              <Text ta="center">{t('call.nobody')}</Text>
            </Paper>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: snapshot.participants.length > 1 ? 2 : 1 }}>
              {snapshot.participants.map((p) => (
                <RemoteVideo key={p.peer.peerId} participant={p} />
              ))}
            </SimpleGrid>
          )}
        </Stack>
        <Stack gap="sm">
          <div style={{ maxWidth: 320 }}>
            <LocalVideo stream={session.localStream} label={t('call.localVideo')} />
            <Text size="sm" mt={4}>
              {t('call.you', { name: selfName })}
            </Text>
          </div>
          <RecordingPanel
            session={session}
            recording={snapshot.recording}
            selfPeerId={snapshot.self?.peerId ?? null}
            isProvider={isProvider}
          />
          {isProvider ? (
            <>
              <WaitingList
                waiting={snapshot.waiting}
                onAdmit={(peerId) => session.admit(peerId)}
                onNotice={(peerId, text) => session.sendNotice(peerId, text)}
              />
              <GuestInvite appointmentId={appointmentId} />
            </>
          ) : null}
        </Stack>
      </SimpleGrid>

      <Group gap="xs" wrap="wrap" role="toolbar" aria-label={t('title')}>
        <Button variant="default" onClick={() => session.setAudio(!snapshot.audioOn)} aria-pressed={!snapshot.audioOn}>
          {snapshot.audioOn ? t('call.muteAudio') : t('call.unmuteAudio')}
        </Button>
        <Button variant="default" onClick={() => session.setVideo(!snapshot.videoOn)} aria-pressed={!snapshot.videoOn}>
          {snapshot.videoOn ? t('call.stopVideo') : t('call.startVideo')}
        </Button>
        {isProvider && typeof navigator.mediaDevices.getDisplayMedia === 'function' ? (
          <Button
            variant="default"
            onClick={() =>
              void session.shareScreen(!snapshot.sharingScreen).catch((e: unknown) => session.log(String(e)))
            }
          >
            {snapshot.sharingScreen ? t('call.stopSharing') : t('call.shareScreen')}
          </Button>
        ) : null}
        <Button color="red" onClick={() => session.end(isProvider)}>
          {isProvider ? t('call.endCall') : t('call.leaveCall')}
        </Button>
      </Group>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <DeviceSelect
          kind="videoinput"
          label={t('call.camera')}
          devices={devices}
          stream={session.localStream}
          onChange={changeDevice}
        />
        <DeviceSelect
          kind="audioinput"
          label={t('call.microphone')}
          devices={devices}
          stream={session.localStream}
          onChange={changeDevice}
        />
      </Group>
      {debug ? <DebugPanel snapshot={snapshot} room={room} /> : null}
    </Stack>
  );
}

/** The specification's debug information (demo mode): the room, the connections and the last log lines. */
export function DebugPanel({ snapshot, room }: { snapshot: CallSnapshot; room: string }) {
  const { t } = useTranslation('video');
  return (
    <details>
      <summary>
        <Title order={2} size="h5" component="span">
          {t('debug.heading')}
        </Title>
      </summary>
      <Stack gap={4} mt="xs">
        <Text size="xs">{t('debug.room', { room })}</Text>
        <Text size="xs">{t('debug.signalling', { state: snapshot.signalling })}</Text>
        {snapshot.participants.map((p) => (
          <Text size="xs" key={p.peer.peerId}>
            {t('debug.peer', {
              peer: p.peer.peerId.slice(0, 6),
              state: p.connectionState,
              local: p.candidateTypes.local ?? '–',
              remote: p.candidateTypes.remote ?? '–',
            })}
          </Text>
        ))}
        <Code block>{snapshot.log.join('\n')}</Code>
      </Stack>
    </details>
  );
}
