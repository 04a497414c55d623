import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/** Whether video visits need the patient's signed telehealth consent (decision 069; off by default). */
export function VideoSettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t } = useTranslation('settings');
  return (
    <SettingBlock title={t('sections.video')}>
      <Switch
        label={t('fields.videoConsentRequired.label')}
        description={t('fields.videoConsentRequired.description')}
        checked={form.values.videoConsentRequired}
        onChange={(event) => form.setField('videoConsentRequired', event.currentTarget.checked)}
        error={fieldError('videoConsentRequired')}
      />
      <SourceLine
        source={source('videoConsentRequired')}
        label={t('fields.videoConsentRequired.label')}
        onReset={onReset}
      />
    </SettingBlock>
  );
}
