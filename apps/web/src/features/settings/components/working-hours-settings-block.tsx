import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { SLOT_STEPS, WEEKDAYS } from '@telehealth/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/**
 * A time field as wide as the browser's own way of showing a time: "08:00 AM" with its clock button in one browser,
 * "08:00" in another, wider or narrower with the platform's font. A fixed 120 px cut it to "08:00 A".
 */
const TIME_FIELD_WIDTH = 'auto';

/** The default working hours of a new provider, one row per span, and the step between bookable slots. */
export function WorkingHoursSettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t, i18n } = useTranslation('settings');
  const { values } = form;
  const weekdayNames = useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' });
    // 2024-01-01 was a Monday (ISO weekday 1).
    return WEEKDAYS.map((day) => ({ value: String(day), label: format.format(Date.UTC(2024, 0, day)) }));
  }, [i18n.language]);

  return (
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
      <SourceLine source={source('defaultWorkingHours')} label={t('sections.workingHours')} onReset={onReset} />
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
      <SourceLine source={source('slotStepMinutes')} label={t('fields.slotStepMinutes.label')} onReset={onReset} />
    </SettingBlock>
  );
}
