import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { videoStartPath } from '@telehealth/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useVideoWaitingRoom, type VideoWaiting } from '../api/video-api.ts';
import { playTestTone } from '../lib/media.ts';

/** The appointments someone waits in (the calendar's cards say 'Waiting'); empty for anyone but a provider. */
export function useWaitingAppointmentIds(isProvider: boolean): Set<string> {
  const waiting = useVideoWaitingRoom(isProvider);
  return new Set((waiting.data ?? []).map((w) => w.appointmentId));
}

/**
 * On the provider's dashboard and calendar: who waits in a video visit, with a link to let them in. A new
 * arrival plays a tone and, if the provider allowed it, shows a browser notification (without the name: it
 * may be read over a shoulder or on a locked screen).
 */
export function VideoWaitingAlert() {
  const { t } = useTranslation('video');
  const waiting = useVideoWaitingRoom(true);
  const entries = waiting.data ?? [];
  useArrivalSignal(entries);
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );
  if (entries.length === 0) return null;
  const byAppointment = new Map<string, VideoWaiting[]>();
  for (const entry of entries)
    byAppointment.set(entry.appointmentId, [...(byAppointment.get(entry.appointmentId) ?? []), entry]);
  return (
    <Alert
      color="blue"
      role="status"
      title={t('alerts.waiting', { count: entries.length })}
      data-testid="video-waiting-alert"
    >
      <Stack gap="xs">
        <List size="sm" spacing={4}>
          {[...byAppointment.entries()].map(([appointmentId, people]) => (
            <List.Item key={appointmentId}>
              <Group gap="xs" wrap="wrap">
                <Text size="sm">
                  {people[0]?.patientName}
                  {people.some((p) => p.name !== p.patientName) ? ` (${people.map((p) => p.name).join(', ')})` : ''}
                </Text>
                <Anchor component={Link} to={videoStartPath(appointmentId)} size="sm">
                  {t('alerts.open')}
                </Anchor>
              </Group>
            </List.Item>
          ))}
        </List>
        {permission === 'default' ? (
          <Button
            size="xs"
            variant="default"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => void Notification.requestPermission().then(setPermission)}
          >
            {t('alerts.enableNotifications')}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** A tone and a browser notification when someone new arrives (not for those already waiting at load). */
function useArrivalSignal(entries: VideoWaiting[]) {
  const { t } = useTranslation('video');
  const known = useRef<Set<string> | null>(null);
  useEffect(() => {
    const keys = new Set(entries.map((e) => `${e.appointmentId}:${e.peerId}`));
    const previous = known.current;
    known.current = keys;
    if (previous === null) return;
    const arrived = [...keys].some((k) => !previous.has(k));
    if (!arrived) return;
    void playTestTone().catch(() => undefined);
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      new Notification(t('alerts.notificationTitle'), { body: t('alerts.notificationBody'), tag: 'video-waiting' });
    }
  }, [entries, t]);
}
