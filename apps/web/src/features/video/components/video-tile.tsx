import { Badge, Box, Group, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import type { RemoteParticipant } from '../lib/call-snapshot.ts';

function useSrcObject(stream: MediaStream | null) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  return ref;
}

const videoStyle = {
  width: '100%',
  aspectRatio: '4 / 3',
  background: '#1a1b1e',
  borderRadius: 8,
  objectFit: 'cover' as const,
};

/** One's own picture: muted (no echo), mirrored like a mirror. */
export function LocalVideo({ stream, label }: { stream: MediaStream | null; label: string }) {
  const ref = useSrcObject(stream);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted
      aria-label={label}
      data-testid="local-video"
      style={{ ...videoStyle, transform: 'scaleX(-1)' }}
    />
  );
}

/** Another person's picture and sound, with their name, the connection's state and its measured quality. */
export function RemoteVideo({ participant }: { participant: RemoteParticipant }) {
  const { t } = useTranslation('video');
  const ref = useSrcObject(participant.stream);
  const { quality, connectionState } = participant;
  const qualityColor = quality?.level === 'good' ? '#1b5e20' : quality?.level === 'fair' ? '#7a4a00' : '#a51d1d';
  return (
    <Box pos="relative">
      <video
        ref={ref}
        autoPlay
        playsInline
        aria-label={t('call.remoteVideo', { name: participant.peer.name })}
        data-testid="remote-video"
        data-peer={participant.peer.peerId}
        data-connection-state={connectionState}
        data-ice-restarts={participant.iceRestarts}
        data-candidates={`${participant.candidateTypes.local ?? ''}/${participant.candidateTypes.remote ?? ''}`}
        style={videoStyle}
      />
      <Group gap="xs" mt={4} justify="space-between" wrap="wrap">
        <Text size="sm" fw={600}>
          {participant.peer.name}
        </Text>
        {connectionState === 'connected' ? (
          <Text size="xs" aria-label={t('call.quality.label')} data-quality={quality?.level ?? 'measuring'}>
            {quality ? (
              <>
                <Text span fw={700} c={qualityColor}>
                  {t(`call.quality.${quality.level}`)}
                </Text>{' '}
                {t('call.quality.details', {
                  loss: quality.lossPercent,
                  rtt: quality.roundTripMs ?? '–',
                  kbps: quality.kbps,
                })}
              </>
            ) : (
              t('call.quality.measuring')
            )}
          </Text>
        ) : (
          <Badge color="gray" variant="light">
            {connectionState === 'disconnected' || connectionState === 'failed'
              ? t('call.reconnecting')
              : t('call.connecting')}
          </Badge>
        )}
      </Group>
    </Box>
  );
}
