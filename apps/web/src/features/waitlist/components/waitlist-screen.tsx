import {
  Alert,
  Button,
  Checkbox,
  Group,
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
  addToWaitlistInputSchema,
  APPOINTMENT_DURATIONS,
  APPOINTMENT_TYPES,
  todayIn,
  WAITLIST_TIMES_OF_DAY,
  WEEKDAYS,
  type AppointmentType,
  type WaitlistTimeOfDay,
} from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

import { PatientPicker, ProviderPicker } from '../../../components/person-pickers.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfig, useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  useAddToWaitlist,
  useRemoveFromWaitlist,
  waitlistQueryOptions,
  type WaitlistEntry,
} from '../api/waitlist-api.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import { LoadingLine } from '../../../components/loading-line.tsx';

/**
 * `/waitlist`: a provider's waitlist (administrators choose the provider). Staff add a patient with the days,
 * part of the day and dates that suit them; a cancelled or moved visit is then offered to the first of them.
 */
export function WaitlistScreen() {
  const { t } = useTranslation('waitlist');
  usePageTitle(t('title'));
  const user = useCurrentUser();
  const isAdmin = user.data?.role === 'admin';
  const [providerId, setProviderId] = useState<string | null>(null);
  const chosenProvider = isAdmin ? providerId : null;

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      {isAdmin ? (
        <ProviderPicker
          label={t('provider')}
          placeholder={t('allProviders')}
          value={providerId}
          onChange={setProviderId}
          clearable
        />
      ) : null}
      {!isAdmin || chosenProvider ? <AddEntryForm providerId={chosenProvider} /> : null}
      <EntryList providerId={chosenProvider} />
    </Stack>
  );
}

function AddEntryForm({ providerId }: { providerId: string | null }) {
  const { t } = useTranslation('waitlist');
  const { data: config } = useAppConfig();
  const today = todayIn(config?.practiceTimeZone ?? 'America/New_York');
  const add = useAddToWaitlist();
  const [values, setValues] = useState({
    patientId: '',
    fromDate: today,
    toDate: '',
    weekdays: [] as string[],
    timeOfDay: 'any',
    duration: '30',
    appointmentType: 'in-person',
    reason: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [added, setAdded] = useState(false);
  const set = (field: keyof typeof values) => (value: string | string[] | null) => {
    setValues((v) => ({ ...v, [field]: value ?? '' }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
    setAdded(false);
  };
  const message = (field: string) => (errors[field] ? errorText(errors[field]) : undefined);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = {
      ...values,
      providerId,
      weekdays: values.weekdays.map(Number),
      duration: Number(values.duration),
    };
    const parsed = addToWaitlistInputSchema(today).safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    add.mutate(input as Parameters<typeof add.mutate>[0], {
      onSuccess: () => {
        setAdded(true);
        setValues((v) => ({ ...v, patientId: '', reason: '', weekdays: [] }));
      },
      onError: (error) => {
        setErrors(fieldErrorsFromServer(error) ?? {});
      },
    });
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-labelledby="waitlist-add-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="waitlist-add-title">
          {t('add.title')}
        </Title>
        <PatientPicker
          label={t('add.patient')}
          placeholder={t('add.patientPlaceholder')}
          nothingFound={t('add.noPatients')}
          value={values.patientId}
          onChange={set('patientId')}
          error={message('patientId')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            type="date"
            label={t('add.from')}
            value={values.fromDate}
            onChange={(e) => set('fromDate')(e.currentTarget.value)}
            error={message('fromDate')}
            required
          />
          <TextInput
            type="date"
            label={t('add.to')}
            value={values.toDate}
            onChange={(e) => set('toDate')(e.currentTarget.value)}
            error={message('toDate')}
            required
          />
        </SimpleGrid>
        <Checkbox.Group
          label={t('add.days')}
          value={values.weekdays}
          onChange={set('weekdays')}
          error={message('weekdays')}
          required
        >
          <Group gap="md" mt={4}>
            {WEEKDAYS.map((day) => (
              <Checkbox key={day} value={String(day)} label={t(`weekday.${day}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={t('add.timeOfDay')}
            data={WAITLIST_TIMES_OF_DAY.map((v) => ({ value: v, label: t(`timeOfDay.${v}`) }))}
            value={values.timeOfDay}
            onChange={set('timeOfDay')}
            allowDeselect={false}
          />
          <Select
            label={t('add.duration')}
            data={APPOINTMENT_DURATIONS.map((d) => ({ value: String(d), label: t('minutes', { count: d }) }))}
            value={values.duration}
            onChange={set('duration')}
            allowDeselect={false}
          />
          <Select
            label={t('add.type')}
            data={APPOINTMENT_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))}
            value={values.appointmentType}
            onChange={set('appointmentType')}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Textarea
          label={t('add.reason')}
          value={values.reason}
          onChange={(e) => set('reason')(e.currentTarget.value)}
          error={message('reason')}
          autosize
          minRows={2}
          required
        />
        {add.isError && !fieldErrorsFromServer(add.error) ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(add.error)}
          </Alert>
        ) : null}
        {added ? (
          <Alert color="green" variant="light" role="status">
            {t('add.done')}
          </Alert>
        ) : null}
        <Button type="submit" loading={add.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('add.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}

function EntryList({ providerId }: { providerId: string | null }) {
  const { t } = useTranslation('waitlist');
  const entries = useQuery(waitlistQueryOptions(providerId));
  if (entries.isPending) {
    return <LoadingLine label={t('loading')} />;
  }
  if (entries.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(entries.error)}
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('waiting', { count: entries.data.length })}
      </Title>
      {entries.data.length === 0 ? (
        <Text c="dimmed">{t('empty')}</Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {entries.data.map((entry) => (
            <EntryItem key={entry.id} entry={entry} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

type Weekday = (typeof WEEKDAYS)[number];

/** "Monday, Thursday · Morning · 30 minutes · In-Person" */
function describeEntry(entry: WaitlistEntry, t: TFunction<'waitlist'>): string {
  return [
    entry.weekdays.map((d) => t(`weekday.${d as Weekday}`)).join(', '),
    t(`timeOfDay.${entry.timeOfDay as WaitlistTimeOfDay}`),
    t('minutes', { count: entry.duration }),
    t(`type.${entry.appointmentType as AppointmentType}`),
  ].join(' · ');
}

function EntryItem({ entry }: { entry: WaitlistEntry }) {
  const { t, i18n } = useTranslation('waitlist');
  const remove = useRemoveFromWaitlist();
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper component="li" withBorder p="md" data-testid="waitlist-entry">
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{entry.patient}</Text>
          <Text size="sm" c="dimmed">
            {entry.providerName}
          </Text>
        </Group>
        <Text size="sm">
          {t('entry.range', {
            from: formatDay(entry.fromDate, i18n.language),
            to: formatDay(entry.toDate, i18n.language),
          })}
        </Text>
        <Text size="sm">{describeEntry(entry, t)}</Text>
        <Text size="sm" c="dimmed">
          {entry.reason}
        </Text>
        {remove.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(remove.error)}
          </Alert>
        ) : null}
        <Group gap="xs" mt={4}>
          {confirming ? (
            <>
              <Text size="sm">{t('entry.confirmRemove', { name: entry.patient })}</Text>
              <Button size="xs" color="red" loading={remove.isPending} onClick={() => remove.mutate(entry.id)}>
                {t('entry.remove')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                {t('entry.keep')}
              </Button>
            </>
          ) : (
            <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
              {t('entry.remove')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
