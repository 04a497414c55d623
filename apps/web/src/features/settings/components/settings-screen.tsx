import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  APPOINTMENT_DURATIONS,
  APPOINTMENT_TYPES,
  BOOKING_MODES,
  PRACTICE_SETTING_LIMITS,
  ROLES,
  SLOT_STEPS,
  WEEKDAYS,
  type AppointmentType,
  type BookingMode,
  type PracticeSettingKey,
  type Role,
} from '@telehealth/shared';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  practiceSettingsQueryOptions,
  useResetPracticeSetting,
  useUpdatePracticeSettings,
  type PracticeSettingSourceView,
  type PracticeSettingsView,
} from '../api/settings-api.ts';
import { useSettingsForm, validateSettingsChange } from '../hooks/use-settings-form.ts';

const L = PRACTICE_SETTING_LIMITS;
/**
 * A time field as wide as the browser's own way of showing a time: "08:00 AM" with its clock button in one browser,
 * "08:00" in another, wider or narrower with the platform's font. A fixed 120 px cut it to "08:00 A".
 */
const TIME_FIELD_WIDTH = 'auto';

/** The first error of a field or of anything inside it (`bookingPolicy` finds `bookingPolicy.mode`). */
function errorUnder(errors: FieldErrors, field: string): FieldErrors[string] | undefined {
  const key = Object.keys(errors).find((k) => k === field || k.startsWith(`${field}.`));
  return key === undefined ? undefined : errors[key];
}

/** Every IANA zone this browser knows, with the one in use even if it does not. */
function timeZoneOptions(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

/**
 * `/admin/settings` (administrators): the practice's settings (decision 032). Each says where its value comes
 * from (the environment's default, built in, or changed by whom and when) and can go back to its default; a save
 * sends only what changed, and the server applies it at once.
 */
export function SettingsScreen() {
  const { t } = useTranslation('settings');
  usePageTitle(t('title'));
  const settings = useQuery(practiceSettingsQueryOptions);
  return (
    <Stack gap="lg" maw={880}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      {settings.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : settings.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(settings.error)}
        </Alert>
      ) : (
        <SettingsForm view={settings.data} />
      )}
    </Stack>
  );
}

function SettingsForm({ view }: { view: PracticeSettingsView }) {
  const { t, i18n } = useTranslation('settings');
  const { t: tShared } = useTranslation('shared');
  const form = useSettingsForm(view.values);
  const { values, errors } = form;
  const update = useUpdatePracticeSettings();
  const [saved, setSaved] = useState(false);
  const [nothingChanged, setNothingChanged] = useState(false);
  const zones = useMemo(() => timeZoneOptions(view.values.timeZone), [view.values.timeZone]);
  const weekdayNames = useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' });
    // 2024-01-01 was a Monday (ISO weekday 1).
    return WEEKDAYS.map((day) => ({ value: String(day), label: format.format(Date.UTC(2024, 0, day)) }));
  }, [i18n.language]);

  const fieldError = (field: string, label?: string) => {
    const text = errorUnder(errors, field);
    return text === undefined ? undefined : errorText(text, { label });
  };
  const source = (key: PracticeSettingKey) => view.sources.find((s) => s.key === key);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setNothingChanged(false);
    const checked = validateSettingsChange(values, view.values);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    if (Object.keys(checked.change).length === 0) {
      form.setErrors({});
      setNothingChanged(true);
      return;
    }
    form.setErrors({});
    update.mutate(checked.change, {
      onSuccess: (next) => {
        form.reset(next.values);
        setSaved(true);
      },
      onError: (error) => {
        const fieldErrors = fieldErrorsFromServer(error);
        if (fieldErrors && Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      },
    });
  };

  const afterReset = (next: PracticeSettingsView) => {
    form.reset(next.values);
    setSaved(false);
  };

  const number = (
    field:
      | 'changeWindowHours'
      | 'minNoticeHours'
      | 'horizonDays'
      | 'messageResponseBusinessDays'
      | 'sessionIdleMinutes'
      | 'recordingRetentionDays',
    path: string,
    min: number,
    max: number,
  ) => (
    <NumberInput
      label={t(`fields.${field}.label`)}
      description={t(`fields.${field}.description`)}
      value={values[field]}
      onChange={(value) => {
        form.setField(field, value);
      }}
      min={min}
      max={max}
      allowDecimal={false}
      error={fieldError(path)}
      maw={320}
    />
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('title')}>
      <Stack gap="md">
        <SettingBlock title={t('sections.practice')}>
          <TextInput
            label={t('fields.practiceName.label')}
            value={values.practiceName}
            onChange={(event) => {
              form.setField('practiceName', event.currentTarget.value);
            }}
            maxLength={L.practiceNameMax}
            error={fieldError('practiceName', t('fields.practiceName.label'))}
          />
          <SourceLine source={source('practiceName')} label={t('fields.practiceName.label')} onReset={afterReset} />
          <TextInput
            label={t('fields.clinicPhone.label')}
            description={t('fields.clinicPhone.description')}
            type="tel"
            autoComplete="off"
            value={values.clinicPhone}
            onChange={(event) => {
              form.setField('clinicPhone', event.currentTarget.value);
            }}
            error={fieldError('clinicPhone')}
          />
          <SourceLine source={source('clinicPhone')} label={t('fields.clinicPhone.label')} onReset={afterReset} />
          <Select
            label={t('fields.timeZone.label')}
            description={t('fields.timeZone.description')}
            data={zones}
            searchable
            allowDeselect={false}
            value={values.timeZone}
            onChange={(value) => {
              if (value) form.setField('timeZone', value);
            }}
            error={fieldError('timeZone')}
            maw={420}
          />
          <SourceLine source={source('timeZone')} label={t('fields.timeZone.label')} onReset={afterReset} />
        </SettingBlock>

        <SettingBlock title={t('sections.workingHours')} description={t('fields.defaultWorkingHours.description')}>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {values.workingHours.map((row) => {
              const dayName = weekdayNames[Number(row.weekday) - 1]?.label ?? row.weekday;
              return (
                <Group component="li" key={row.id} gap="xs" align="flex-end" wrap="wrap">
                  <Select
                    label={t('fields.defaultWorkingHours.weekday')}
                    data={weekdayNames}
                    value={row.weekday}
                    allowDeselect={false}
                    onChange={(value) => {
                      if (value) form.updateWorkingHours(row.id, { weekday: value });
                    }}
                    w={150}
                  />
                  <TextInput
                    label={t('fields.defaultWorkingHours.start')}
                    type="time"
                    value={row.startTime}
                    onChange={(event) => {
                      form.updateWorkingHours(row.id, { startTime: event.currentTarget.value });
                    }}
                    w={TIME_FIELD_WIDTH}
                  />
                  <TextInput
                    label={t('fields.defaultWorkingHours.end')}
                    type="time"
                    value={row.endTime}
                    onChange={(event) => {
                      form.updateWorkingHours(row.id, { endTime: event.currentTarget.value });
                    }}
                    w={TIME_FIELD_WIDTH}
                  />
                  <Button
                    variant="subtle"
                    color="red"
                    aria-label={t('fields.defaultWorkingHours.removeNamed', { day: dayName })}
                    onClick={() => {
                      form.removeWorkingHours(row.id);
                    }}
                  >
                    {t('fields.defaultWorkingHours.remove')}
                  </Button>
                </Group>
              );
            })}
          </Stack>
          {values.workingHours.length === 0 ? <Text size="sm">{t('fields.defaultWorkingHours.none')}</Text> : null}
          {fieldError('defaultWorkingHours') ? (
            <Text size="sm" c="red.8" role="alert">
              {fieldError('defaultWorkingHours')}
            </Text>
          ) : null}
          <Group>
            <Button variant="default" onClick={form.addWorkingHours}>
              {t('fields.defaultWorkingHours.add')}
            </Button>
          </Group>
          <SourceLine source={source('defaultWorkingHours')} label={t('sections.workingHours')} onReset={afterReset} />
          <Select
            label={t('fields.slotStepMinutes.label')}
            description={t('fields.slotStepMinutes.description')}
            data={SLOT_STEPS.map((step) => ({ value: String(step), label: t('minutes', { count: step }) }))}
            value={values.slotStepMinutes}
            allowDeselect={false}
            onChange={(value) => {
              if (value) form.setField('slotStepMinutes', value);
            }}
            error={fieldError('slotStepMinutes')}
            maw={320}
          />
          <SourceLine
            source={source('slotStepMinutes')}
            label={t('fields.slotStepMinutes.label')}
            onReset={afterReset}
          />
        </SettingBlock>

        <SettingBlock title={t('sections.bookingPolicy')} description={t('sections.bookingPolicyDescription')}>
          {number('changeWindowHours', 'bookingPolicy.changeWindowHours', 0, L.changeWindowHoursMax)}
          {number('minNoticeHours', 'bookingPolicy.minNoticeHours', 0, L.minNoticeHoursMax)}
          {number('horizonDays', 'bookingPolicy.horizonDays', 1, L.horizonDaysMax)}
          <Checkbox.Group
            label={t('fields.appointmentTypes.label')}
            description={t('fields.appointmentTypes.description')}
            value={values.appointmentTypes}
            onChange={(value) => {
              form.setField(
                'appointmentTypes',
                APPOINTMENT_TYPES.filter((type: AppointmentType) => value.includes(type)),
              );
            }}
            error={fieldError('bookingPolicy.appointmentTypes')}
          >
            <Group gap="md" mt={4}>
              {APPOINTMENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={t(`appointmentTypes.${type}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <Radio.Group
            label={t('fields.mode.label')}
            value={values.mode}
            onChange={(value) => {
              const mode = BOOKING_MODES.find((m: BookingMode) => m === value);
              if (mode) form.setField('mode', mode);
            }}
            error={fieldError('bookingPolicy.mode')}
          >
            <Stack gap={6} mt={4}>
              {BOOKING_MODES.map((mode) => (
                <Radio key={mode} value={mode} label={t(`modes.${mode}`)} />
              ))}
            </Stack>
          </Radio.Group>
          <Select
            label={t('fields.duration.label')}
            data={APPOINTMENT_DURATIONS.map((d) => ({ value: String(d), label: t('minutes', { count: d }) }))}
            value={values.duration}
            allowDeselect={false}
            onChange={(value) => {
              if (value) form.setField('duration', value);
            }}
            error={fieldError('bookingPolicy.duration')}
            maw={320}
          />
          <SourceLine source={source('bookingPolicy')} label={t('sections.bookingPolicy')} onReset={afterReset} />
        </SettingBlock>

        <SettingBlock title={t('sections.communication')}>
          <TextInput
            label={t('fields.reminderHours.label')}
            description={t('fields.reminderHours.description')}
            value={values.reminderHours}
            onChange={(event) => {
              form.setField('reminderHours', event.currentTarget.value);
            }}
            error={fieldError('reminderHours')}
            maw={320}
          />
          <SourceLine source={source('reminderHours')} label={t('fields.reminderHours.label')} onReset={afterReset} />
          {number('messageResponseBusinessDays', 'messageResponseBusinessDays', 1, L.messageResponseBusinessDaysMax)}
          <SourceLine
            source={source('messageResponseBusinessDays')}
            label={t('fields.messageResponseBusinessDays.label')}
            onReset={afterReset}
          />
        </SettingBlock>

        <SettingBlock title={t('sections.security')}>
          {number('sessionIdleMinutes', 'sessionIdleMinutes', 1, L.sessionIdleMinutesMax)}
          <SourceLine
            source={source('sessionIdleMinutes')}
            label={t('fields.sessionIdleMinutes.label')}
            onReset={afterReset}
          />
          <Checkbox.Group
            label={t('fields.twoFactorRequiredRoles.label')}
            description={t('fields.twoFactorRequiredRoles.description')}
            value={values.twoFactorRequiredRoles}
            onChange={(value) => {
              form.setField(
                'twoFactorRequiredRoles',
                ROLES.filter((role: Role) => value.includes(role)),
              );
            }}
            error={fieldError('twoFactorRequiredRoles')}
          >
            <Group gap="md" mt={4}>
              {ROLES.map((role) => (
                <Checkbox key={role} value={role} label={tShared(`roles.${role}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <SourceLine
            source={source('twoFactorRequiredRoles')}
            label={t('fields.twoFactorRequiredRoles.label')}
            onReset={afterReset}
          />
          {number('recordingRetentionDays', 'recordingRetentionDays', 1, L.recordingRetentionDaysMax)}
          <SourceLine
            source={source('recordingRetentionDays')}
            label={t('fields.recordingRetentionDays.label')}
            onReset={afterReset}
          />
        </SettingBlock>

        {nothingChanged ? (
          <Alert color="yellow" variant="light" role="status">
            {t('nothingChanged')}
          </Alert>
        ) : null}
        {errors['form'] ? (
          <Alert color="yellow" variant="light" role="alert">
            {errorText(errors['form'])}
          </Alert>
        ) : Object.keys(errors).length > 0 ? (
          <Alert color="red" variant="light" role="alert">
            {t('fixErrors')}
          </Alert>
        ) : null}
        {update.isError && !fieldErrorsFromServer(update.error) ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(update.error)}
          </Alert>
        ) : null}
        {saved ? (
          <Alert color="green" variant="light" role="status">
            {t('saved')}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={update.isPending}>
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SettingBlock({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder p="md" aria-label={title}>
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/** Where a setting's value comes from, and "reset to default" once an administrator changed it. */
function SourceLine({
  source,
  label,
  onReset,
}: {
  source: PracticeSettingSourceView | undefined;
  label: string;
  onReset: (view: PracticeSettingsView) => void;
}) {
  const { t, i18n } = useTranslation('settings');
  const reset = useResetPracticeSetting();
  if (!source) return null;
  let text: string;
  if (source.source === 'changed') {
    const date = source.updatedAt
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
          new Date(source.updatedAt),
        )
      : '';
    text = t('source.changed', { name: source.updatedByName ?? t('source.someone'), date });
  } else if (source.source === 'environment') {
    text = t('source.environment', { variables: source.variables.join(', ') });
  } else {
    text = t('source.builtIn');
  }
  return (
    <Stack gap={4} data-testid={`setting-source-${source.key}`}>
      <Group gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          {text}
        </Text>
        {source.source === 'changed' ? (
          <Button
            size="compact-sm"
            variant="default"
            loading={reset.isPending}
            aria-label={t('resetNamed', { setting: label })}
            onClick={() => {
              reset.mutate(source.key, { onSuccess: onReset });
            }}
          >
            {t('reset')}
          </Button>
        ) : null}
      </Group>
      {reset.isError ? (
        <Text size="sm" c="red.8" role="alert">
          {describeError(reset.error)}
        </Text>
      ) : null}
    </Stack>
  );
}
