import { Alert, Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { addDays, todayIn } from '@telehealth/shared';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { useNow } from '../../../hooks/use-now.ts';
import { useAppConfig, useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { useLiveMessages } from '../../../lib/live-channel.ts';
import { formatShortDay, formatVisitTime } from '../../../lib/practice-dates.ts';
import { appointmentQueryKeys, appointmentsQueryOptions, type Appointment } from '../api/appointments-api.ts';
import { counterpartName } from '../utils/appointment-display.ts';
import { AppointmentStatusBadge } from './status-badge.tsx';

function AppointmentLine({ appointment, withDate }: { appointment: Appointment; withDate?: boolean }) {
  const { t, i18n } = useTranslation('appointments');
  const { data: user } = useCurrentUser();
  const clinic = useClinicZone();
  return (
    <Group component="li" justify="space-between" wrap="wrap" gap="xs" data-testid="dashboard-appointment">
      <Text size="sm">
        {withDate ? `${formatShortDay(appointment.date, i18n.language)}, ` : ''}
        <strong>{formatVisitTime(appointment, clinic)}</strong> · {counterpartName(appointment, user?.role)} ·{' '}
        {appointment.appointmentType === 'video' ? t('card.video') : t('card.inPerson')}
      </Text>
      <AppointmentStatusBadge status={appointment.status} />
    </Group>
  );
}

function List({ items, empty, withDate }: { items: Appointment[]; empty: string; withDate?: boolean }) {
  if (items.length === 0) return <Text size="sm">{empty}</Text>;
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((a) => (
        <AppointmentLine key={a.id} appointment={a} withDate={withDate} />
      ))}
    </Stack>
  );
}

/** A dashboard card of appointments: its title, then loading, the error, or what `children` makes of them. */
function ScheduleCard({
  id,
  title,
  query,
  children,
}: {
  id: string;
  title: string;
  query: UseQueryResult<Appointment[]>;
  children: (appointments: Appointment[]) => ReactNode;
}) {
  const { t } = useTranslation('appointments');
  return (
    <Card shadow="xs" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {query.isPending ? (
          <Loader size="sm" aria-label={t('calendar.loading')} />
        ) : query.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(query.error)}
          </Alert>
        ) : (
          children(query.data)
        )}
      </Stack>
    </Card>
  );
}

/** The provider's dashboard: today's appointments. */
export function TodaysAppointments() {
  const { t } = useTranslation('appointments');
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const appointments = useQuery(appointmentsQueryOptions({ from: today, to: today }));
  return (
    <ScheduleCard id="today-title" title={t('dashboard.today')} query={appointments}>
      {(items) => <List items={items.filter((a) => a.status !== 'cancelled')} empty={t('dashboard.none')} />}
    </ScheduleCard>
  );
}

/** The patient portal's My Appointments: upcoming and past visits, and the way to the page that changes them. */
export function MyAppointments() {
  const { t } = useTranslation('appointments');
  return (
    <UpcomingAndPast id="my-appointments-title" title={t('dashboard.mine')}>
      <Anchor component={Link} to="/my/appointments" fw={600}>
        {t('dashboard.openMine')}
      </Anchor>
    </UpcomingAndPast>
  );
}

/**
 * The provider's dashboard: patients' requests waiting for confirmation (request mode, decision 030).
 * Shown only while there are any.
 */
export function VisitRequests() {
  const { t } = useTranslation('appointments');
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const filter = { from: today, to: addDays(today, 366), status: ['pending' as const] };
  const requests = useQuery(appointmentsQueryOptions(filter));
  const queryClient = useQueryClient();
  // A patient's new request appears without a reload.
  useLiveMessages((message) => {
    if (message.type === 'appointments-changed')
      void queryClient.invalidateQueries({ queryKey: appointmentQueryKeys.range(filter) });
  });
  if (!requests.data || requests.data.length === 0) return null;
  return (
    <ScheduleCard id="visit-requests-title" title={t('dashboard.requests')} query={requests}>
      {(items) => (
        <>
          <Text size="sm">{t('dashboard.requestsHint')}</Text>
          <List items={items} empty="" withDate />
          <Anchor component={Link} to="/calendar" fw={600}>
            {t('calendar.title')}
          </Anchor>
        </>
      )}
    </ScheduleCard>
  );
}

/** A patient's appointments in their chart: upcoming and past visits. */
export function PatientAppointments({ patientId }: { patientId: string }) {
  const { t } = useTranslation('appointments');
  return (
    <UpcomingAndPast id="patient-appointments-title" title={t('dashboard.patientAppointments')} patientId={patientId} />
  );
}

/** Upcoming and past visits of a year either side of today: the caller's own, or one patient's. */
function UpcomingAndPast({
  id,
  title,
  patientId,
  children,
}: {
  id: string;
  title: string;
  patientId?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('appointments');
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const appointments = useQuery(
    appointmentsQueryOptions({
      from: addDays(today, -365),
      to: addDays(today, 366),
      ...(patientId ? { patientId } : {}),
    }),
  );
  const now = useNow();
  return (
    <ScheduleCard id={id} title={title} query={appointments}>
      {(items) => (
        <>
          <Title order={3} size="h5">
            {t('dashboard.upcoming')}
          </Title>
          <List
            items={items.filter((a) => new Date(a.endsAt).getTime() >= now && a.status !== 'cancelled')}
            empty={t('dashboard.noUpcoming')}
            withDate
          />
          <Title order={3} size="h5">
            {t('dashboard.past')}
          </Title>
          <List
            items={items
              .filter((a) => new Date(a.endsAt).getTime() < now)
              .reverse()
              .slice(0, 10)}
            empty={t('dashboard.noPast')}
            withDate
          />
          {children}
        </>
      )}
    </ScheduleCard>
  );
}
