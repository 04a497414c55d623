import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { useSpecialtyLabel } from '../../../hooks/use-specialty-label.ts';
import { describeError } from '../../../lib/errors.ts';
import { useProviderOptions } from '../api/provider-options.ts';
import { patientFieldId } from '../hooks/use-patient-form.tsx';

/** Administrators choose the primary provider from the practice's providers (value: the provider's account id). */
export function OwnerSelect({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (owner: string | null) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('patients');
  const specialtyLabel = useSpecialtyLabel();
  const providers = useProviderOptions(true);
  const data = useMemo(() => {
    const options = (providers.data ?? []).map((provider) => ({
      value: provider.owner,
      label: `${provider.firstName} ${provider.lastName} · ${specialtyLabel(provider.specialty)}${
        provider.isActive ? '' : ` (${t('form.ownerInactive')})`
      }`,
    }));
    // A provider that is no longer listed still shows as the current choice.
    if (value && !options.some((option) => option.value === value)) options.push({ value, label: value });
    return options;
  }, [providers.data, value, t, specialtyLabel]);

  return (
    <Select
      id={patientFieldId('owner')}
      label={t('form.owner')}
      description={t('form.ownerHint')}
      placeholder={t('form.ownerPlaceholder')}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      clearButtonProps={{ 'aria-label': t('form.clearOwner') }}
      searchable
      nothingFoundMessage={t('form.noProviders')}
      error={
        error ??
        (providers.isError ? t('form.ownerLoadFailed', { message: describeError(providers.error) }) : undefined)
      }
      disabled={providers.isPending}
      maw={480}
    />
  );
}
