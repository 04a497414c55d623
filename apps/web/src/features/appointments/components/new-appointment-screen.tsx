import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  APPOINTMENT_DURATIONS,
  APPOINTMENT_PRIORITIES,
  createAppointmentInputSchema,
  DEFAULT_APPOINTMENT_DURATION,
  DEFAULT_APPOINTMENT_TYPE,
  ERROR_CODES,
  RECURRENCE_FREQUENCIES,
  todayIn,
  type CreateAppointmentInput,
} from '@telehealth/shared';
import { useEffect, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { PatientPicker, ProviderPicker } from '../../../components/person-pickers.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfig, useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { coded, errorText } from '../../../lib/error-text.ts';
import { useCreateAppointment } from '../api/appointments-api.ts';
import { TimeSelect } from './time-select.tsx';

/** The specification's pause on 'Appointment Scheduled!' before going back to the calendar. */
const SUCCESS_RETURN_MS = 2000;

interface FormValues {
  patientId: string;
  providerId: string;
  appointmentType: string;
  date: string;
  time: string;
  duration: string;
  reason: string;
  notes: string;
  priority: string;
  repeat: string;
  count: number | string;
  until: string;
}

const EMPTY: FormValues = {
  patientId: '',
  providerId: '',
  appointmentType: DEFAULT_APPOINTMENT_TYPE,
  date: '',
  time: '',
  duration: String(DEFAULT_APPOINTMENT_DURATION),
  reason: '',
  notes: '',
  priority: 'normal',
  repeat: 'none',
  count: 6,
  until: '',
};

/** The form's values as createAppointment takes them (a provider books for themselves by default). */
function toInput(values: FormValues, isAdmin: boolean, allowOutsideHours: boolean): CreateAppointmentInput {
  return {
    patientId: values.patientId,
    ...(isAdmin ? { providerId: values.providerId } : {}),
    appointmentType: values.appointmentType as CreateAppointmentInput['appointmentType'],
    date: values.date,
    time: values.time,
    duration: Number(values.duration),
    reason: values.reason,
    notes: values.notes.trim() ? values.notes : null,
    priority: values.priority as CreateAppointmentInput['priority'],
    recurrence:
      values.repeat === 'none'
        ? null
        : {
            frequency: values.repeat as 'weekly',
            count: values.until ? null : Number(values.count),
            until: values.until || null,
          },
    allowOutsideHours,
  };
}

/** `/appointments/new`: the specification's Schedule New Appointment form, saved for real. */
export function NewAppointmentScreen() {
  const { t } = useTranslation('appointments');
  usePageTitle(t('form.title'));
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const isAdmin = user?.role === 'admin';
  const create = useCreateAppointment();
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [scheduled, setScheduled] = useState(false);

  useEffect(() => {
    if (!scheduled) return;
    const timer = setTimeout(() => void navigate('/calendar'), SUCCESS_RETURN_MS);
    return () => clearTimeout(timer);
  }, [scheduled, navigate]);

  const set = (field: keyof FormValues) => (value: string | number | null) => {
    setValues((v) => ({ ...v, [field]: value ?? '' }));
    // The specification: field errors clear on edit.
    setErrors(({ [field]: _gone, ...rest }) => rest);
    create.reset();
  };
  const message = (field: string) => (errors[field] ? errorText(errors[field]) : undefined);

  const submit = (allowOutsideHours: boolean) => {
    const input = toInput(values, isAdmin, allowOutsideHours);
    const parsed = createAppointmentInputSchema(today).safeParse(input);
    const problems = parsed.success ? {} : fieldErrorsFromZod(parsed.error);
    if (isAdmin && !values.providerId) problems['providerId'] = coded('appointmentMessages.selectProvider');
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      return;
    }
    create.mutate(input, {
      onSuccess: () => setScheduled(true),
      onError: (error) => setErrors(fieldErrorsFromServer(error) ?? {}),
    });
  };

  if (scheduled) {
    return (
      <Stack gap="md" maw={720} role="status">
        <Title order={1}>{t('form.success')}</Title>
        <Text>{t('form.returning')}</Text>
      </Stack>
    );
  }

  const outsideHours =
    create.isError && isGraphQLRequestError(create.error) && create.error.code === ERROR_CODES.outsideWorkingHours;
  const inline = create.isError ? fieldErrorsFromServer(create.error) : null;
  const failure = create.isError && !(inline && Object.keys(inline).length > 0) ? create.error : null;
  const failureText =
    failure && isGraphQLRequestError(failure) && failure.kind === 'graphql' && failure.code !== ERROR_CODES.internal
      ? describeError(failure)
      : errorText(coded('appointmentMessages.failed'));

  return (
    <Stack gap="md" maw={720}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('form.title')}</Title>
        <Button component={Link} to="/calendar" variant="default">
          {t('form.back')}
        </Button>
      </Group>
      <Paper
        withBorder
        p={{ base: 'md', sm: 'lg' }}
        component="form"
        noValidate
        onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
          event.preventDefault();
          submit(false);
        }}
      >
        <Stack gap="sm">
          <PatientPicker
            label={t('form.patient')}
            placeholder={t('form.patientPlaceholder')}
            nothingFound={t('form.noPatients')}
            value={values.patientId}
            onChange={set('patientId')}
            error={message('patientId')}
          />
          {isAdmin ? (
            <ProviderPicker
              label={t('form.provider')}
              value={values.providerId || null}
              onChange={set('providerId')}
              error={message('providerId')}
              required
            />
          ) : null}
          <Select
            label={t('form.type')}
            data={[
              { value: 'in-person', label: t('card.inPerson') },
              { value: 'video', label: t('card.video') },
            ]}
            value={values.appointmentType}
            onChange={set('appointmentType')}
            allowDeselect={false}
          />
          {values.appointmentType === 'video' ? (
            <Alert color="blue" variant="light">
              {t('form.videoInfo')}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              type="date"
              label={t('form.date')}
              min={today}
              value={values.date}
              onChange={(e) => set('date')(e.currentTarget.value)}
              error={message('date')}
              required
            />
            <TimeSelect
              label={t('form.time')}
              providerId={isAdmin ? values.providerId || null : (user?.userId ?? null)}
              date={values.date}
              duration={Number(values.duration)}
              value={values.time || null}
              onChange={set('time')}
              error={message('time')}
            />
            <Select
              label={t('form.duration')}
              data={APPOINTMENT_DURATIONS.map((d) => ({ value: String(d), label: t('minutes', { count: d }) }))}
              value={values.duration}
              onChange={set('duration')}
              error={message('duration')}
              allowDeselect={false}
            />
          </SimpleGrid>
          <Textarea
            label={t('form.reason')}
            value={values.reason}
            onChange={(e) => set('reason')(e.currentTarget.value)}
            error={message('reason')}
            autosize
            minRows={2}
            required
          />
          <Textarea
            label={t('form.notes')}
            value={values.notes}
            onChange={(e) => set('notes')(e.currentTarget.value)}
            error={message('notes')}
            autosize
            minRows={2}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label={t('form.priority')}
              data={APPOINTMENT_PRIORITIES.map((p) => ({ value: p, label: t(`form.priorities.${p}`) }))}
              value={values.priority}
              onChange={set('priority')}
              allowDeselect={false}
            />
            <Select
              label={t('form.repeat')}
              data={['none', ...RECURRENCE_FREQUENCIES].map((r) => ({
                value: r,
                label: t(`form.repeats.${r as 'none' | 'weekly' | 'biweekly' | 'monthly'}`),
              }))}
              value={values.repeat}
              onChange={set('repeat')}
              allowDeselect={false}
            />
            {values.repeat !== 'none' ? (
              <NumberInput
                label={t('form.count')}
                min={2}
                max={53}
                value={values.count}
                onChange={set('count')}
                error={message('recurrence')}
                disabled={values.until !== ''}
              />
            ) : null}
          </SimpleGrid>
          {values.repeat !== 'none' ? (
            <TextInput
              type="date"
              label={t('form.until')}
              value={values.until}
              min={values.date || today}
              onChange={(e) => set('until')(e.currentTarget.value)}
              maw={240}
            />
          ) : null}
          {create.isError && (outsideHours || failure) ? (
            <Alert
              color={outsideHours ? 'yellow' : 'red'}
              variant="light"
              role="alert"
              title={outsideHours ? t('form.outsideHoursTitle') : undefined}
            >
              <Stack gap="xs">
                <Text size="sm">{failureText}</Text>
                {outsideHours ? (
                  <Button size="xs" color="yellow" onClick={() => submit(true)} style={{ alignSelf: 'flex-start' }}>
                    {t('form.bookAnyway')}
                  </Button>
                ) : null}
              </Stack>
            </Alert>
          ) : null}
          <Group gap="sm" wrap="wrap">
            <Button
              variant="default"
              onClick={() => {
                setValues(EMPTY);
                setErrors({});
                create.reset();
              }}
            >
              {t('form.clear')}
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? t('form.submitting') : t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
