import { Anchor, Stack, Text, Title } from '@mantine/core';
import { recordingFilePath } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { videoRecordingsQueryOptions } from '../api/video-api.ts';

/**
 * The recordings of an appointment's video visit, in its details, for its provider: played here (the server
 * answers byte ranges, so the player seeks) or downloaded. Others are refused by the server; nothing shows.
 */
export function VisitRecordings({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('video');
  const recordings = useQuery(videoRecordingsQueryOptions(appointmentId));
  const shown = (recordings.data ?? []).filter((r) => r.status === 'ready' || r.status === 'stopped');
  if (shown.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('recordings.heading')}
      </Title>
      {shown.map((r, i) =>
        r.status === 'ready' ? (
          <Stack gap={4} key={r.id}>
            <video
              controls
              preload="metadata"
              src={recordingFilePath(r.id)}
              aria-label={t('recordings.player', { number: i + 1 })}
              data-testid="recording-player"
              style={{ width: '100%', borderRadius: 8, background: '#111' }}
            />
            <Text size="xs">
              {t('recordings.details', { minutes: Math.round((r.durationMs ?? 0) / 600) / 100 })}{' '}
              <Anchor href={`${recordingFilePath(r.id)}?download=1`} size="xs">
                {t('recordings.download')}
              </Anchor>
            </Text>
          </Stack>
        ) : (
          <Text size="sm" key={r.id}>
            {t('recordings.processing')}
          </Text>
        ),
      )}
    </Stack>
  );
}
