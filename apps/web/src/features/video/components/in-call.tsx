import { Alert, Button, Code, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { CallSnapshot } from '../lib/call-snapshot.ts';
import type { VideoCallSession } from '../lib/video-call-session.ts';
import { DeviceSelect, useMediaDevices } from './device-select.tsx';
import { GuestInvite } from './guest-invite.tsx';
import { RecordingPanel } from './recording-panel.tsx';
import { LocalVideo, RemoteVideo } from './video-tile.tsx';
import { WaitingList } from './waiting-list.tsx';

/**
 * The call: the others' pictures, one's own, the waiting room for the provider, the devices, the debug panel in
 * demo mode, and the controls (microphone, camera, screen sharing for the provider, End Call) in a bar that stays
 * at the bottom of the window however long the panels are (decision 047). The provider's End Call asks first, and
 * offers to leave without ending instead.
 */
export function InCall({
  session,
  snapshot,
  isProvider,
  room,
  appointmentId,
  patientName,
  debug,
}: {
  session: VideoCallSession;
  snapshot: CallSnapshot;
  isProvider: boolean;
  room: string;
  appointmentId: string;
  patientName: string;
  debug: boolean;
}) {
  const { t } = useTranslation('video');
  const [confirmingEnd, setConfirmingEnd] = useState(false);
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
      {!isProvider && snapshot.providerStepOut ? (
        <Alert color="blue" role="status" data-testid="provider-stepped-out">
          {t('call.providerStepOut')}
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

      {debug ? <DebugPanel snapshot={snapshot} room={room} /> : null}
      <Paper
        withBorder
        p="xs"
        radius="md"
        shadow="sm"
        data-testid="call-controls"
        // Stays in view at the bottom of the window while the panels above scroll by.
        style={{ position: 'sticky', bottom: 0, zIndex: 2 }}
      >
        <Group gap="xs" wrap="wrap" justify="center" role="toolbar" aria-label={t('call.controls')}>
          <Button
            variant="default"
            onClick={() => session.setAudio(!snapshot.audioOn)}
            aria-pressed={!snapshot.audioOn}
          >
            {snapshot.audioOn ? t('call.muteAudio') : t('call.unmuteAudio')}
          </Button>
          <Button
            variant="default"
            onClick={() => session.setVideo(!snapshot.videoOn)}
            aria-pressed={!snapshot.videoOn}
          >
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
          <Button color="red" onClick={() => (isProvider ? setConfirmingEnd(true) : session.leave())}>
            {isProvider ? t('call.endCall') : t('call.leaveCall')}
          </Button>
        </Group>
      </Paper>
      <Modal
        opened={confirmingEnd}
        onClose={() => setConfirmingEnd(false)}
        title={t('endVisit.title')}
        centered
        closeButtonProps={{ 'aria-label': t('endVisit.close') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('endVisit.body', { patient: patientName })}</Text>
          <Group gap="xs" justify="flex-end" wrap="wrap">
            <Button variant="default" onClick={() => setConfirmingEnd(false)}>
              {t('endVisit.cancel')}
            </Button>
            <Button variant="default" onClick={() => session.leave()}>
              {t('endVisit.leave')}
            </Button>
            <Button color="red" onClick={() => session.end(true)}>
              {t('endVisit.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
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
