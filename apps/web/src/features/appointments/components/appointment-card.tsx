import type { ReactNode } from 'react';
import { Avatar, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { videoStartPath } from '@telehealth/shared';

import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatShortDay, formatVisitTime } from '../../../lib/practice-dates.ts';
import type { Appointment } from '../api/appointments-api.ts';
import { useCurrentUser } from '../../../lib/auth.ts';
import { counterpartName, initialsOf } from '../utils/appointment-display.ts';
import { AppointmentStatusBadge } from './status-badge.tsx';

/**
 * The specification's appointment card: initials, name, reason, time, type, status, duration and date; Share
 * Link and Start Video Call on video visits; View Details on every card.
 */
export function AppointmentCard({
  appointment,
  onShare,
  onDetails,
  waiting = false,
  extra,
}: {
  appointment: Appointment;
  /** Under the name: what another feature says of the visit (the patient's readiness before a first visit). */
  extra?: ReactNode;
  onShare: (appointment: Appointment) => void;
  onDetails: (appointment: Appointment) => void;
  /** Someone waits in this visit's video waiting room (the provider's calendar). */
  waiting?: boolean;
}) {
  const { t, i18n } = useTranslation('appointments');
  const { data: user } = useCurrentUser();
  const clinic = useClinicZone();
  const name = counterpartName(appointment, user?.role);
  const video = appointment.appointmentType === 'video';
  const open =
    appointment.status !== 'cancelled' && appointment.status !== 'completed' && appointment.status !== 'no-show';
  return (
    <Paper component="li" withBorder p="md" data-testid="appointment-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Avatar
              radius="xl"
              aria-hidden
              styles={{ placeholder: { background: 'var(--mantine-color-teal-0)', color: '#065f46' } }}
            >
              {initialsOf(name)}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {appointment.reason}
              </Text>
              {extra}
            </Stack>
          </Group>
          <Group gap={4} wrap="nowrap">
            {waiting ? (
              <Badge color="blue" variant="filled" data-testid="waiting-badge">
                {t('card.waiting')}
              </Badge>
            ) : null}
            <AppointmentStatusBadge status={appointment.status} />
          </Group>
        </Group>
        <Group gap="md" wrap="wrap">
          <Text size="sm" fw={600}>
            {formatVisitTime(appointment, clinic)}
          </Text>
          <Text size="sm">{video ? t('card.video') : t('card.inPerson')}</Text>
          <Text size="sm">{t('card.minutes', { count: appointment.duration })}</Text>
          <Text size="sm">{formatShortDay(appointment.date, i18n.language)}</Text>
        </Group>
        <Group gap="xs" wrap="wrap">
          {video && open ? (
            <>
              <Button size="xs" variant="light" onClick={() => onShare(appointment)}>
                {t('card.shareLink')}
              </Button>
              <Button size="xs" component={Link} to={videoStartPath(appointment.id)}>
                {t('card.startVideo')}
              </Button>
            </>
          ) : null}
          <Button size="xs" variant="default" onClick={() => onDetails(appointment)}>
            {t('card.viewDetails')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
