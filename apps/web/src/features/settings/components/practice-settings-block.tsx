import { Select, TextInput } from '@mantine/core';
import { PRACTICE_SETTING_LIMITS } from '@telehealth/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/** Every IANA zone this browser knows, with the one in use even if it does not. */
function timeZoneOptions(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

/** The practice: its name, its phone and its time zone. */
export function PracticeSettingsBlock({
  form,
  fieldError,
  source,
  onReset,
  savedTimeZone,
}: SettingsBlockProps & { savedTimeZone: string }) {
  const { t } = useTranslation('settings');
  const { values } = form;
  const zones = useMemo(() => timeZoneOptions(savedTimeZone), [savedTimeZone]);
  return (
    <SettingBlock title={t('sections.practice')}>
      <TextInput
        label={t('fields.practiceName.label')}
        value={values.practiceName}
        onChange={(event) => {
          form.setField('practiceName', event.currentTarget.value);
        }}
        maxLength={PRACTICE_SETTING_LIMITS.practiceNameMax}
        error={fieldError('practiceName', t('fields.practiceName.label'))}
      />
      <SourceLine source={source('practiceName')} label={t('fields.practiceName.label')} onReset={onReset} />
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
      <SourceLine source={source('clinicPhone')} label={t('fields.clinicPhone.label')} onReset={onReset} />
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
      <SourceLine source={source('timeZone')} label={t('fields.timeZone.label')} onReset={onReset} />
    </SettingBlock>
  );
}
