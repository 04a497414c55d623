import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  addDays,
  canReschedule,
  canTransition,
  changeDeadline,
  isPastAppointment,
  todayIn,
  type AppointmentStatus,
  type AppointmentType,
} from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { useNow } from '../../../hooks/use-now.ts';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfig } from '../../../lib/auth.ts';
import { afterMutation } from '../../../lib/after-mutation.ts';
import { PhoneLinkedText } from '../../../components/phone-linked-text.tsx';
import { describeError } from '../../../lib/errors.ts';
import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatDay, formatPracticeInstant, formatVisitTime } from '../../../lib/practice-dates.ts';
import { telHref } from '../../../lib/tel-href.ts';
import { appointmentsQueryOptions, type Appointment } from '../api/appointments-api.ts';
import {
  bookingPolicyQueryOptions,
  useConfirmMyAppointment,
  type BookingPolicyView,
} from '../api/patient-booking-api.ts';
import { BookVisit } from './book-visit.tsx';
import { CancelDialog, RescheduleDialog } from './my-appointment-dialogs.tsx';
import { AppointmentStatusBadge } from './status-badge.tsx';

const FINISHED: readonly string[] = ['cancelled', 'completed', 'no-show'];

/**
 * `/my/appointments`: a patient's upcoming and past visits (in the practice's time zone), with what they may do
 * with each (join a video visit in its window, confirm, reschedule or cancel within the policy, or call the
 * clinic), and booking a new visit. Made for a phone first.
 */
export function MyAppointmentsScreen() {
  const { t } = useTranslation('my-appointments');
  usePageTitle(t('title'));
  const { data: config } = useAppConfig();
  const zone = config?.practiceTimeZone ?? 'America/New_York';
  const today = todayIn(zone);
  const policy = useQuery(bookingPolicyQueryOptions());
  const appointments = useQuery(appointmentsQueryOptions({ from: addDays(today, -365), to: addDays(today, 366) }));
  const [booking, setBooking] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const now = useNow();

  const failed = policy.error ?? appointments.error;
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Stack gap={4}>
          <Title order={1}>{t('title')}</Title>
          <Text size="sm">{t('intro', { zone })}</Text>
        </Stack>
        {!booking && policy.data && policy.data.appointmentTypes.length > 0 ? (
          <Button
            onClick={() => {
              setNotice(null);
              setBooking(true);
            }}
          >
            {t('bookVisit')}
          </Button>
        ) : null}
      </Group>
      {notice ? (
        <Alert
          color="teal"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel={t('dismiss')}
          onClose={() => setNotice(null)}
        >
          {notice}
        </Alert>
      ) : null}
      {failed ? (
        <Alert color="red" variant="light" role="alert">
          <PhoneLinkedText text={describeError(failed)} />
        </Alert>
      ) : !policy.data || !appointments.data ? (
        <LoadingLine label={t('loading')} />
      ) : booking ? (
        <BookVisit policy={policy.data} zone={zone} onDone={() => setBooking(false)} />
      ) : (
        <Visits items={appointments.data} policy={policy.data} zone={zone} now={now} onNotice={setNotice} />
      )}
    </Stack>
  );
}

function Visits({
  items,
  policy,
  zone,
  now,
  onNotice,
}: {
  items: Appointment[];
  policy: BookingPolicyView;
  zone: string;
  now: number;
  onNotice: (text: string) => void;
}) {
  const { t } = useTranslation('my-appointments');
  // A visit ended early (completed before its time) is past at once (issue 25).
  const upcoming = items.filter((a) => !isPastAppointment(a, now) && a.status !== 'cancelled');
  const past = items
    .filter((a) => isPastAppointment(a, now) || a.status === 'cancelled')
    .reverse()
    .slice(0, 20);
  return (
    <>
      <Stack gap="sm" component="section" aria-labelledby="upcoming-title">
        <Title order={2} size="h3" id="upcoming-title">
          {t('upcoming')}
        </Title>
        {upcoming.length === 0 ? <Text>{t('noUpcoming')}</Text> : null}
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {upcoming.map((a) => (
            <VisitCard key={a.id} appointment={a} policy={policy} zone={zone} now={now} onNotice={onNotice} />
          ))}
        </Stack>
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="past-title">
        <Title order={2} size="h3" id="past-title">
          {t('past')}
        </Title>
        {past.length === 0 ? <Text>{t('noPast')}</Text> : null}
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {past.map((a) => (
            <VisitCard key={a.id} appointment={a} policy={policy} zone={zone} now={now} onNotice={onNotice} past />
          ))}
        </Stack>
      </Stack>
    </>
  );
}

function VisitCard({
  appointment,
  policy,
  zone,
  now,
  onNotice,
  past = false,
}: {
  appointment: Appointment;
  policy: BookingPolicyView;
  zone: string;
  now: number;
  onNotice: (text: string) => void;
  past?: boolean;
}) {
  const { t, i18n } = useTranslation('my-appointments');
  const confirm = useConfirmMyAppointment();
  const clinic = useClinicZone();
  const [dialog, setDialog] = useState<'cancel' | 'reschedule' | null>(null);
  const status = appointment.status as AppointmentStatus;
  const startsAt = new Date(appointment.startsAt).getTime();
  const endsAt = new Date(appointment.endsAt).getTime();
  const type = t(`type.${appointment.appointmentType as AppointmentType}`);
  const when = `${formatDay(appointment.date, i18n.language)}, ${formatVisitTime(appointment, clinic)}`;
  const deadline = changeDeadline(new Date(appointment.startsAt), policy);
  const changeable = canReschedule(status) || canTransition(status, 'cancelled');
  const upcoming = !past && startsAt > now && !FINISHED.includes(status);
  const beforeDeadline = now < deadline.getTime();
  const isVideo = appointment.appointmentType === 'video';
  const opensAt = startsAt - policy.joinEarlyMinutes * 60_000;
  const joinOpen =
    isVideo &&
    !FINISHED.includes(status) &&
    status !== 'pending' &&
    (status === 'in-progress' || (now >= opensAt && now <= endsAt + policy.joinLateMinutes * 60_000));
  const titleId = `visit-${appointment.id}`;

  return (
    <Paper component="li" withBorder p="md" radius="md" aria-labelledby={titleId} data-testid="my-appointment">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Stack gap={2}>
            <Text fw={600} id={titleId}>
              {when}
            </Text>
            <Text size="sm">
              {type} · {t('duration', { minutes: appointment.duration })} ·{' '}
              {t('with', { provider: appointment.providerName })}
            </Text>
          </Stack>
          <AppointmentStatusBadge status={appointment.status} />
        </Group>
        {status === 'pending' && !past ? <Text size="sm">{t('actions.pendingNote')}</Text> : null}
        {isVideo && !past && !FINISHED.includes(status) && status !== 'pending' ? (
          joinOpen ? (
            <Button component={Link} to={`/video-call/${appointment.id}`} w="fit-content">
              {t('actions.join')}
            </Button>
          ) : (
            <Stack gap={4}>
              <Button disabled w="fit-content">
                {t('actions.join')}
              </Button>
              <Text size="sm">
                {t('actions.joinOpens', {
                  time: formatPracticeInstant(new Date(opensAt).toISOString(), zone, i18n.language),
                  minutes: policy.joinEarlyMinutes,
                })}
              </Text>
            </Stack>
          )
        ) : null}
        {upcoming && changeable ? (
          beforeDeadline ? (
            <>
              <Group gap="xs" wrap="wrap">
                {status === 'scheduled' ? (
                  <Button
                    variant="light"
                    loading={confirm.isPending}
                    onClick={() =>
                      afterMutation(confirm.mutateAsync(appointment.id), () => onNotice(t('actions.confirmed')))
                    }
                  >
                    {t('actions.confirm')}
                  </Button>
                ) : null}
                {canReschedule(status) ? (
                  <Button variant="default" onClick={() => setDialog('reschedule')}>
                    {t('actions.reschedule')}
                  </Button>
                ) : null}
                <Button variant="default" color="red" onClick={() => setDialog('cancel')}>
                  {t('actions.cancel')}
                </Button>
              </Group>
              <Text size="xs">
                {t('actions.changeUntil', {
                  when: formatPracticeInstant(deadline.toISOString(), zone, i18n.language),
                })}
              </Text>
            </>
          ) : (
            <CallTheClinic hours={policy.changeWindowHours} phone={policy.clinicPhone}>
              {status === 'scheduled' ? (
                <Button
                  variant="light"
                  w="fit-content"
                  loading={confirm.isPending}
                  onClick={() =>
                    afterMutation(confirm.mutateAsync(appointment.id), () => onNotice(t('actions.confirmed')))
                  }
                >
                  {t('actions.confirm')}
                </Button>
              ) : null}
            </CallTheClinic>
          )
        ) : null}
        {confirm.isError ? (
          <Alert color="red" variant="light" role="alert">
            <PhoneLinkedText text={describeError(confirm.error)} />
          </Alert>
        ) : null}
      </Stack>
      {dialog === 'cancel' ? (
        <CancelDialog
          appointment={appointment}
          summary={t('cancel.summary', { when, type, provider: appointment.providerName })}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            onNotice(t('cancel.done'));
          }}
        />
      ) : null}
      {dialog === 'reschedule' ? (
        <RescheduleDialog
          appointment={appointment}
          policy={policy}
          zone={zone}
          onClose={() => setDialog(null)}
          onDone={(moved) => {
            setDialog(null);
            const values = { when: `${formatDay(moved.date, i18n.language)}, ${moved.time}` };
            onNotice(moved.status === 'pending' ? t('reschedule.doneRequest', values) : t('reschedule.done', values));
          }}
        />
      ) : null}
    </Paper>
  );
}

/**
 * Inside the policy's window: call the clinic instead, the number as a tel: link; a practice without a number
 * (decision 032) asks for a message to the care team instead of pointing nowhere.
 */
function CallTheClinic({ hours, phone, children }: { hours: number; phone: string | null; children?: ReactNode }) {
  const { t } = useTranslation('my-appointments');
  return (
    <Stack gap="xs">
      {children}
      <Text size="sm">{t(phone ? 'actions.callClinic' : 'actions.writeClinic', { count: hours })}</Text>
      {phone ? (
        <Anchor href={telHref(phone)} fw={600} w="fit-content">
          {t('actions.callNumber', { phone })}
        </Anchor>
      ) : (
        <Anchor component={Link} to="/messages" fw={600} w="fit-content">
          {t('actions.writeMessage')}
        </Anchor>
      )}
    </Stack>
  );
}
