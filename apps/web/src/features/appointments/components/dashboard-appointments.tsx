import { Alert, Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { addDays, isPastAppointment, todayIn } from '@telehealth/shared';
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
import { calendarPathOf, counterpartName } from '../utils/appointment-display.ts';
import { SeeNowButton } from './see-now-button.tsx';
import { AppointmentStatusBadge } from './status-badge.tsx';

function AppointmentLine({
  appointment,
  withDate,
  linked,
}: {
  appointment: Appointment;
  withDate?: boolean | undefined;
  /** The line opens the appointment in the calendar. */
  linked?: boolean | undefined;
}) {
  const { t, i18n } = useTranslation('appointments');
  const { data: user } = useCurrentUser();
  const clinic = useClinicZone();
  const content = (
    <>
      {withDate ? `${formatShortDay(appointment.date, i18n.language)}, ` : ''}
      <strong>{formatVisitTime(appointment, clinic)}</strong> · {counterpartName(appointment, user?.role)} ·{' '}
      {appointment.appointmentType === 'video' ? t('card.video') : t('card.inPerson')}
    </>
  );
  return (
    <Group component="li" justify="space-between" wrap="wrap" gap="xs" data-testid="dashboard-appointment">
      {linked ? (
        <Anchor component={Link} to={calendarPathOf(appointment)} size="sm">
          {content}
        </Anchor>
      ) : (
        <Text size="sm">{content}</Text>
      )}
      <AppointmentStatusBadge status={appointment.status} />
    </Group>
  );
}

function List({
  items,
  empty,
  withDate,
  linked,
}: {
  items: Appointment[];
  empty: string;
  withDate?: boolean;
  linked?: boolean;
}) {
  if (items.length === 0) return <Text size="sm">{empty}</Text>;
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((a) => (
        <AppointmentLine key={a.id} appointment={a} withDate={withDate} linked={linked} />
      ))}
    </Stack>
  );
}

/** A dashboard card of appointments: its title, then loading, the error, or what `children` makes of them. */
function ScheduleCard({
  id,
  title,
  query,
  action,
  children,
}: {
  id: string;
  title: string;
  query: UseQueryResult<Appointment[]>;
  /** Beside the title (the chart's See now). */
  action?: ReactNode;
  children: (appointments: Appointment[]) => ReactNode;
}) {
  const { t } = useTranslation('appointments');
  return (
    <Card shadow="xs" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {action}
        </Group>
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
          <List items={items} empty="" withDate linked />
        </>
      )}
    </ScheduleCard>
  );
}

/**
 * A patient's appointments in their chart: upcoming and past visits; for the patient's provider, See now (an
 * unscheduled video visit starting now, decision 046).
 */
export function PatientAppointments({ patientId, canSeeNow = false }: { patientId: string; canSeeNow?: boolean }) {
  const { t } = useTranslation('appointments');
  return (
    <UpcomingAndPast
      id="patient-appointments-title"
      title={t('dashboard.patientAppointments')}
      patientId={patientId}
      action={canSeeNow ? <SeeNowButton patientId={patientId} /> : null}
    />
  );
}

/** Upcoming and past visits of a year either side of today: the caller's own, or one patient's. */
function UpcomingAndPast({
  id,
  title,
  patientId,
  action,
  children,
}: {
  id: string;
  title: string;
  patientId?: string;
  action?: ReactNode;
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
    <ScheduleCard id={id} title={title} query={appointments} action={action}>
      {(items) => (
        <>
          <Title order={3} size="h5">
            {t('dashboard.upcoming')}
          </Title>
          <List
            items={items.filter((a) => !isPastAppointment(a, now) && a.status !== 'cancelled')}
            empty={t('dashboard.noUpcoming')}
            withDate
          />
          <Title order={3} size="h5">
            {t('dashboard.past')}
          </Title>
          <List
            items={items
              // A visit ended early (completed before its time) is past at once (issue 25).
              .filter((a) => isPastAppointment(a, now))
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
