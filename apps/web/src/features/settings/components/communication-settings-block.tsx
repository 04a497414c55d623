import { TextInput } from '@mantine/core';
import { PRACTICE_SETTING_LIMITS as L } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SettingNumberInput, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/** Reminders before a visit and the promised time to answer a message. */
export function CommunicationSettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t } = useTranslation('settings');
  return (
    <SettingBlock title={t('sections.communication')}>
      <TextInput
        label={t('fields.reminderHours.label')}
        description={t('fields.reminderHours.description')}
        value={form.values.reminderHours}
        onChange={(event) => {
          form.setField('reminderHours', event.currentTarget.value);
        }}
        error={fieldError('reminderHours')}
        maw={320}
      />
      <SourceLine source={source('reminderHours')} label={t('fields.reminderHours.label')} onReset={onReset} />
      <SettingNumberInput
        form={form}
        fieldError={fieldError}
        field="messageResponseBusinessDays"
        path="messageResponseBusinessDays"
        min={1}
        max={L.messageResponseBusinessDaysMax}
      />
      <SourceLine
        source={source('messageResponseBusinessDays')}
        label={t('fields.messageResponseBusinessDays.label')}
        onReset={onReset}
      />
    </SettingBlock>
  );
}
