import { Alert, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { addDays, todayIn } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { useNow } from '../../../hooks/use-now.ts';
import { useAppConfig } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatShortDay } from '../../../lib/practice-dates.ts';
import { appointmentsQueryOptions, type Appointment } from '../api/appointments-api.ts';
import { AppointmentStatusBadge } from './status-badge.tsx';

function AppointmentLine({ appointment, withDate }: { appointment: Appointment; withDate?: boolean }) {
  const { t, i18n } = useTranslation('appointments');
  return (
    <Group component="li" justify="space-between" wrap="wrap" gap="xs" data-testid="dashboard-appointment">
      <Text size="sm">
        {withDate ? `${formatShortDay(appointment.date, i18n.language)}, ` : ''}
        <strong>{appointment.time}</strong> · {appointment.patient} ·{' '}
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

/** The provider's dashboard: today's appointments. */
export function TodaysAppointments() {
  const { t } = useTranslation('appointments');
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const appointments = useQuery(appointmentsQueryOptions({ from: today, to: today }));
  return (
    <Card shadow="xs" component="section" aria-labelledby="today-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="today-title">
          {t('dashboard.today')}
        </Title>
        {appointments.isPending ? (
          <Loader size="sm" aria-label={t('calendar.loading')} />
        ) : appointments.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(appointments.error)}
          </Alert>
        ) : (
          <List items={appointments.data.filter((a) => a.status !== 'cancelled')} empty={t('dashboard.none')} />
        )}
      </Stack>
    </Card>
  );
}

/** The patient portal's My Appointments: upcoming and past visits, read-only. */
export function MyAppointments() {
  const { t } = useTranslation('appointments');
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const appointments = useQuery(appointmentsQueryOptions({ from: addDays(today, -365), to: addDays(today, 366) }));
  const items = appointments.data ?? [];
  const now = useNow();
  const upcoming = items.filter((a) => new Date(a.endsAt).getTime() >= now && a.status !== 'cancelled');
  const past = items.filter((a) => new Date(a.endsAt).getTime() < now).reverse();
  return (
    <Card shadow="xs" component="section" aria-labelledby="my-appointments-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="my-appointments-title">
          {t('dashboard.mine')}
        </Title>
        {appointments.isPending ? (
          <Loader size="sm" aria-label={t('calendar.loading')} />
        ) : appointments.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(appointments.error)}
          </Alert>
        ) : (
          <>
            <Title order={3} size="h5">
              {t('dashboard.upcoming')}
            </Title>
            <List items={upcoming} empty={t('dashboard.noUpcoming')} withDate />
            <Title order={3} size="h5">
              {t('dashboard.past')}
            </Title>
            <List items={past.slice(0, 10)} empty={t('dashboard.noPast')} withDate />
          </>
        )}
      </Stack>
    </Card>
  );
}
