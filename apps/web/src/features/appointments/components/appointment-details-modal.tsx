import {
  Alert,
  Button,
  Divider,
  Group,
  List,
  Modal,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  APPOINTMENT_DURATIONS,
  seesPatientList,
  CANCELLATION_KINDS,
  canReschedule,
  canTransition,
  ERROR_CODES,
  type AppointmentStatus,
} from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useAppConfig, useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatDay, formatPracticeInstant, formatVisitTime } from '../../../lib/practice-dates.ts';
import {
  appointmentQueryOptions,
  useCancelAppointment,
  useSetAppointmentStatus,
  useUpdateAppointment,
  type DetailedAppointment,
} from '../api/appointments-api.ts';
import { counterpartName } from '../utils/appointment-display.ts';
import { AppointmentStatusBadge } from './status-badge.tsx';
import { TimeSelect } from './time-select.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';

type Panel = 'none' | 'reschedule' | 'cancel';

/** View Details: the appointment, its history, and what staff may do with it next. */
export function AppointmentDetailsModal({
  appointmentId,
  canChange,
  onClose,
  extra,
}: {
  appointmentId: string | null;
  canChange: boolean;
  onClose: () => void;
  /** More about the appointment from other features (its video visit's recordings), composed by the route. */
  extra?: (appointmentId: string) => ReactNode;
}) {
  const { t } = useTranslation('appointments');
  const appointment = useQuery({ ...appointmentQueryOptions(appointmentId ?? ''), enabled: appointmentId !== null });
  return (
    <Modal
      opened={appointmentId !== null}
      onClose={onClose}
      title={t('details.title')}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('details.close') }}
    >
      {appointment.isPending ? (
        <LoadingLine label={t('details.loading')} />
      ) : appointment.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(appointment.error)}
        </Alert>
      ) : (
        <Stack gap="md">
          <Details appointment={appointment.data} canChange={canChange} />
          {extra && appointmentId ? extra(appointmentId) : null}
        </Stack>
      )}
    </Modal>
  );
}

function Details({ appointment, canChange }: { appointment: DetailedAppointment; canChange: boolean }) {
  const { t, i18n } = useTranslation('appointments');
  const { data: user } = useCurrentUser();
  // Staff open the patient's chart from here; a patient has no chart to open.
  const showChartLink = seesPatientList(user?.role);
  const { data: config } = useAppConfig();
  const zone = config?.practiceTimeZone ?? 'America/New_York';
  const clinic = useClinicZone();
  const status = appointment.status as AppointmentStatus;
  const [panel, setPanel] = useState<Panel>('none');
  const setStatus = useSetAppointmentStatus();
  const who = (name: string | null) => name ?? t('details.someone');
  const row = (label: string, value: string) => (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" fw={600} miw={140}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Group>
  );
  const transitions = (
    [
      ['confirmed', 'details.confirm'],
      ['checked-in', 'details.checkIn'],
      ['completed', 'details.complete'],
      ['no-show', 'details.noShow'],
    ] as const
  ).filter(([to]) => canTransition(status, to));
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {counterpartName(appointment, user?.role)}
        </Title>
        <Group gap="xs">
          {showChartLink ? (
            <Button component={Link} to={`/patients/${appointment.patientId}`} size="xs" variant="default">
              {t('details.openChart')}
            </Button>
          ) : null}
          <AppointmentStatusBadge status={appointment.status} />
        </Group>
      </Group>
      {row(t('details.provider'), appointment.providerName)}
      {row(t('details.when'), `${formatDay(appointment.date, i18n.language)}, ${formatVisitTime(appointment, clinic)}`)}
      {row(t('details.duration'), t('minutes', { count: appointment.duration }))}
      {row(t('details.type'), appointment.appointmentType === 'video' ? t('card.video') : t('card.inPerson'))}
      {row(t('details.priority'), t(`form.priorities.${appointment.priority as 'normal' | 'high' | 'urgent'}`))}
      {row(t('details.reason'), appointment.reason)}
      {appointment.notes ? row(t('details.notes'), appointment.notes) : null}
      {appointment.seriesId ? <Text size="sm">{t('details.series')}</Text> : null}
      {appointment.cancellationKind ? (
        <Text size="sm">
          {t('details.cancelled', {
            kind: t(`details.kind.${appointment.cancellationKind as 'patient' | 'provider' | 'late'}`),
            reason: appointment.cancelReason ?? '',
          })}
        </Text>
      ) : null}
      <Divider />
      <Title order={3} size="h5">
        {t('details.history')}
      </Title>
      <List size="sm" spacing={2}>
        {appointment.history.map((change, index) => (
          <List.Item key={index}>
            {formatPracticeInstant(change.at, zone, i18n.language)} ·{' '}
            {change.action === 'rescheduled'
              ? t('details.historyEntry.rescheduled', {
                  from: formatPracticeInstant(change.fromStartsAt ?? change.at, zone, i18n.language),
                  to: formatPracticeInstant(change.toStartsAt ?? change.at, zone, i18n.language),
                  who: who(change.actorName),
                })
              : change.action === 'status'
                ? t('details.historyEntry.status', {
                    from: t(`status.${(change.fromStatus ?? 'scheduled') as AppointmentStatus}`),
                    to: t(`status.${(change.toStatus ?? 'scheduled') as AppointmentStatus}`),
                    who: who(change.actorName),
                  })
                : t(`details.historyEntry.${change.action as 'created' | 'updated' | 'cancelled'}`, {
                    who: who(change.actorName),
                  })}
          </List.Item>
        ))}
      </List>
      {canChange ? (
        <>
          <Divider />
          <Title order={3} size="h5">
            {t('details.actions')}
          </Title>
          {setStatus.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(setStatus.error)}
            </Alert>
          ) : null}
          <Group gap="xs" wrap="wrap">
            {transitions.map(([to, label]) => (
              <Button
                key={to}
                size="xs"
                variant="light"
                loading={setStatus.isPending && setStatus.variables.status === to}
                onClick={() => setStatus.mutate({ id: appointment.id, status: to })}
              >
                {/* A patient's request (decision 030) is confirmed or declined. */}
                {t(status === 'pending' && to === 'confirmed' ? 'details.confirmRequest' : label)}
              </Button>
            ))}
            {canReschedule(status) ? (
              <Button size="xs" variant="default" onClick={() => setPanel('reschedule')}>
                {t('details.reschedule')}
              </Button>
            ) : null}
            {canTransition(status, 'cancelled') ? (
              <Button size="xs" color="red" variant="light" onClick={() => setPanel('cancel')}>
                {t(status === 'pending' ? 'details.declineRequest' : 'details.cancel')}
              </Button>
            ) : null}
          </Group>
          {panel === 'reschedule' ? (
            <ReschedulePanel appointment={appointment} onDone={() => setPanel('none')} />
          ) : null}
          {panel === 'cancel' ? <CancelPanel appointment={appointment} onDone={() => setPanel('none')} /> : null}
        </>
      ) : null}
    </Stack>
  );
}

function ReschedulePanel({ appointment, onDone }: { appointment: DetailedAppointment; onDone: () => void }) {
  const { t } = useTranslation('appointments');
  const [date, setDate] = useState(appointment.date);
  const [time, setTime] = useState<string | null>(appointment.time);
  const [duration, setDuration] = useState(String(appointment.duration));
  const update = useUpdateAppointment();
  const outside =
    update.isError && isGraphQLRequestError(update.error) && update.error.code === ERROR_CODES.outsideWorkingHours;
  const save = (allowOutsideHours: boolean) =>
    update.mutate(
      { id: appointment.id, date, time: time ?? '', duration: Number(duration), allowOutsideHours },
      { onSuccess: onDone },
    );
  return (
    <Stack gap="xs" component="section" aria-label={t('details.rescheduleTitle')}>
      <Title order={4} size="h6">
        {t('details.rescheduleTitle')}
      </Title>
      <Group grow wrap="wrap" align="flex-start">
        <TextInput type="date" label={t('form.date')} value={date} onChange={(e) => setDate(e.currentTarget.value)} />
        <TimeSelect
          label={t('form.time')}
          providerId={appointment.providerId}
          date={date}
          duration={Number(duration)}
          value={time}
          onChange={setTime}
          keep={date === appointment.date ? appointment.time : undefined}
        />
        <Select
          label={t('form.duration')}
          data={APPOINTMENT_DURATIONS.map((d) => ({ value: String(d), label: t('minutes', { count: d }) }))}
          value={duration}
          onChange={(v) => setDuration(v ?? duration)}
          allowDeselect={false}
        />
      </Group>
      {update.isError ? (
        <Alert color={outside ? 'yellow' : 'red'} variant="light" role="alert">
          {describeError(update.error)}
        </Alert>
      ) : null}
      <Group gap="xs">
        {outside ? (
          <Button size="xs" color="yellow" onClick={() => save(true)} loading={update.isPending}>
            {t('form.bookAnyway')}
          </Button>
        ) : (
          <Button size="xs" onClick={() => save(false)} loading={update.isPending}>
            {t('details.save')}
          </Button>
        )}
        <Button size="xs" variant="default" onClick={onDone}>
          {t('details.keep')}
        </Button>
      </Group>
    </Stack>
  );
}

function CancelPanel({ appointment, onDone }: { appointment: DetailedAppointment; onDone: () => void }) {
  const { t } = useTranslation('appointments');
  const [reason, setReason] = useState('');
  const [kind, setKind] = useState<string>('provider');
  const [scope, setScope] = useState<'this' | 'following'>('this');
  const cancel = useCancelAppointment();
  return (
    <Stack gap="xs" component="section" aria-label={t('details.cancelTitle')}>
      <Title order={4} size="h6">
        {t('details.cancelTitle')}
      </Title>
      <Textarea
        label={t('details.cancelReason')}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        required
        autosize
        minRows={2}
      />
      <Select
        label={t('details.cancelKind')}
        data={CANCELLATION_KINDS.map((k) => ({ value: k, label: t(`details.kind.${k}`) }))}
        value={kind}
        onChange={(v) => setKind(v ?? kind)}
        allowDeselect={false}
      />
      {appointment.seriesId ? (
        <Radio.Group value={scope} onChange={(v) => setScope(v === 'following' ? 'following' : 'this')}>
          <Stack gap={4}>
            <Radio value="this" label={t('details.scopeThis')} />
            <Radio value="following" label={t('details.scopeFollowing')} />
          </Stack>
        </Radio.Group>
      ) : null}
      {cancel.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(cancel.error)}
        </Alert>
      ) : null}
      <Group gap="xs">
        <Button
          size="xs"
          color="red"
          loading={cancel.isPending}
          onClick={() =>
            cancel.mutate(
              { id: appointment.id, reason, cancellationKind: kind as 'patient' | 'provider' | 'late', scope },
              { onSuccess: onDone },
            )
          }
        >
          {t('details.confirmCancel')}
        </Button>
        <Button size="xs" variant="default" onClick={onDone}>
          {t('details.keep')}
        </Button>
      </Group>
    </Stack>
  );
}
