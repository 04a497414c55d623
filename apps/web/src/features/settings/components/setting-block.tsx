import { Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import type { PracticeSettingKey } from '@telehealth/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import {
  useResetPracticeSetting,
  type PracticeSettingSourceView,
  type PracticeSettingsView,
} from '../api/settings-api.ts';
import type { useSettingsForm } from '../hooks/use-settings-form.ts';

/** What each settings block gets from the form that holds them all. */
export interface SettingsBlockProps {
  form: ReturnType<typeof useSettingsForm>;
  /** The translated error of a field or of anything inside it, if any. */
  fieldError: (field: string, label?: string) => string | undefined;
  source: (key: PracticeSettingKey) => PracticeSettingSourceView | undefined;
  /** After a setting went back to its default: the form shows the new values. */
  onReset: (view: PracticeSettingsView) => void;
}

/** One titled block of settings. */
export function SettingBlock({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
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

/** The settings that are a whole number of hours, days or minutes. */
export type NumberSettingField =
  | 'changeWindowHours'
  | 'minNoticeHours'
  | 'horizonDays'
  | 'messageResponseBusinessDays'
  | 'sessionIdleMinutes'
  | 'recordingRetentionDays';

/** A whole-number setting, its label and description from `fields.<field>`; `path` names its server field. */
export function SettingNumberInput({
  form,
  fieldError,
  field,
  path,
  min,
  max,
}: Pick<SettingsBlockProps, 'form' | 'fieldError'> & {
  field: NumberSettingField;
  path: string;
  min: number;
  max: number;
}) {
  const { t } = useTranslation('settings');
  return (
    <NumberInput
      label={t(`fields.${field}.label`)}
      description={t(`fields.${field}.description`)}
      value={form.values[field]}
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
}

/** Where a setting's value comes from, and "reset to default" once an administrator changed it. */
export function SourceLine({
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
