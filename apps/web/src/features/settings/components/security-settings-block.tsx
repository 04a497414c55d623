import { Checkbox, Group } from '@mantine/core';
import { PRACTICE_SETTING_LIMITS as L, ROLES, type Role } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { SettingBlock, SettingNumberInput, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

/** Idle sign-out, the roles that must use two-factor sign-in, and how long recordings are kept. */
export function SecuritySettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t } = useTranslation('settings');
  const { t: tShared } = useTranslation('shared');
  return (
    <SettingBlock title={t('sections.security')}>
      <SettingNumberInput
        form={form}
        fieldError={fieldError}
        field="sessionIdleMinutes"
        path="sessionIdleMinutes"
        min={1}
        max={L.sessionIdleMinutesMax}
      />
      <SourceLine
        source={source('sessionIdleMinutes')}
        label={t('fields.sessionIdleMinutes.label')}
        onReset={onReset}
      />
      <Checkbox.Group
        label={t('fields.twoFactorRequiredRoles.label')}
        description={t('fields.twoFactorRequiredRoles.description')}
        value={form.values.twoFactorRequiredRoles}
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
        onReset={onReset}
      />
      <SettingNumberInput
        form={form}
        fieldError={fieldError}
        field="recordingRetentionDays"
        path="recordingRetentionDays"
        min={1}
        max={L.recordingRetentionDaysMax}
      />
      <SourceLine
        source={source('recordingRetentionDays')}
        label={t('fields.recordingRetentionDays.label')}
        onReset={onReset}
      />
    </SettingBlock>
  );
}
