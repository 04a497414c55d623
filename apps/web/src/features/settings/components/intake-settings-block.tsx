import { Checkbox, Stack } from '@mantine/core';
import { OPTIONAL_INTAKE_SECTIONS } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/** The sections of the intake packet new patients fill in (decision 067); their details are always asked. */
export function IntakeSettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t } = useTranslation('settings');
  return (
    <SettingBlock title={t('sections.intake')}>
      <Checkbox.Group
        label={t('fields.intakeSections.label')}
        description={t('fields.intakeSections.description')}
        value={form.values.intakeSections}
        onChange={(value) => {
          form.setField(
            'intakeSections',
            OPTIONAL_INTAKE_SECTIONS.filter((section) => value.includes(section)),
          );
        }}
        error={fieldError('intakeSections')}
      >
        <Stack gap="xs" mt={4}>
          {OPTIONAL_INTAKE_SECTIONS.map((section) => (
            <Checkbox key={section} value={section} label={t(`intakeSections.${section}`)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <SourceLine source={source('intakeSections')} label={t('fields.intakeSections.label')} onReset={onReset} />
    </SettingBlock>
  );
}
