import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PracticeSettingKey } from '@telehealth/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  practiceSettingsQueryOptions,
  useUpdatePracticeSettings,
  type PracticeSettingsView,
} from '../api/settings-api.ts';
import { useSettingsForm, validateSettingsChange } from '../hooks/use-settings-form.ts';
import { BillingSettingsBlock } from './billing-settings-block.tsx';
import { BookingPolicySettingsBlock } from './booking-policy-settings-block.tsx';
import { CommunicationSettingsBlock } from './communication-settings-block.tsx';
import { PracticeSettingsBlock } from './practice-settings-block.tsx';
import { IntakeSettingsBlock } from './intake-settings-block.tsx';
import { SecuritySettingsBlock } from './security-settings-block.tsx';
import { VideoSettingsBlock } from './video-settings-block.tsx';
import type { SettingsBlockProps } from './setting-block.tsx';
import { WorkingHoursSettingsBlock } from './working-hours-settings-block.tsx';

/** The first error of a field or of anything inside it (`bookingPolicy` finds `bookingPolicy.mode`). */
function errorUnder(errors: FieldErrors, field: string): FieldErrors[string] | undefined {
  const key = Object.keys(errors).find((k) => k === field || k.startsWith(`${field}.`));
  return key === undefined ? undefined : errors[key];
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
  const { t } = useTranslation('settings');
  const form = useSettingsForm(view.values);
  const { values, errors } = form;
  const update = useUpdatePracticeSettings();
  const [saved, setSaved] = useState(false);
  const [nothingChanged, setNothingChanged] = useState(false);

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

  const block: SettingsBlockProps = { form, fieldError, source, onReset: afterReset };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('title')}>
      <Stack gap="md">
        <PracticeSettingsBlock {...block} savedTimeZone={view.values.timeZone} />
        <WorkingHoursSettingsBlock {...block} />
        <BookingPolicySettingsBlock {...block} />
        <CommunicationSettingsBlock {...block} />
        <SecuritySettingsBlock {...block} />
        <IntakeSettingsBlock {...block} />
        <VideoSettingsBlock {...block} />
        <BillingSettingsBlock {...block} />
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
