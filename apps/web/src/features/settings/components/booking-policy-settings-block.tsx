import { Checkbox, Group, Radio, Select, Stack } from '@mantine/core';
import {
  APPOINTMENT_DURATIONS,
  APPOINTMENT_TYPES,
  BOOKING_MODES,
  PRACTICE_SETTING_LIMITS as L,
  type AppointmentType,
  type BookingMode,
} from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SettingNumberInput, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/** How patients book: windows, horizon, the kinds of visit offered, who confirms, and the default length. */
export function BookingPolicySettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t } = useTranslation('settings');
  const { values } = form;
  return (
    <SettingBlock title={t('sections.bookingPolicy')} description={t('sections.bookingPolicyDescription')}>
      <SettingNumberInput
        form={form}
        fieldError={fieldError}
        field="changeWindowHours"
        path="bookingPolicy.changeWindowHours"
        min={0}
        max={L.changeWindowHoursMax}
      />
      <SettingNumberInput
        form={form}
        fieldError={fieldError}
        field="minNoticeHours"
        path="bookingPolicy.minNoticeHours"
        min={0}
        max={L.minNoticeHoursMax}
      />
      <SettingNumberInput
        form={form}
        fieldError={fieldError}
        field="horizonDays"
        path="bookingPolicy.horizonDays"
        min={1}
        max={L.horizonDaysMax}
      />
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
      <SourceLine source={source('bookingPolicy')} label={t('sections.bookingPolicy')} onReset={onReset} />
    </SettingBlock>
  );
}
