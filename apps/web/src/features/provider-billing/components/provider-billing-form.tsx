import { Alert, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { BILLING_LIMITS, ProviderBillingSchema } from '@telehealth/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { fieldErrorsFromServer, fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import {
  useProviderBilling,
  useUpdateProviderBilling,
  type ProviderBillingInput,
  type ProviderBillingView,
} from '../api/provider-billing-api.ts';

/**
 * A provider's billing identity (decision 073): NPI, taxonomy code, licence state and number, checked with the
 * shared schema before the server checks them again (an NPI's check digit, an NPI another provider has).
 */
export function ProviderBillingForm({ providerId, onSaved }: { providerId: string; onSaved?: () => void }) {
  const { t } = useTranslation('billing-setup');
  const billing = useProviderBilling(providerId);
  if (billing.isPending) return <LoadingLine label={t('providerBilling.loading')} />;
  if (billing.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(billing.error)}
      </Alert>
    );
  return <Fields providerId={providerId} current={billing.data} onSaved={onSaved} />;
}

const FIELDS = ['npi', 'taxonomyCode', 'licenseState', 'licenseNumber'] as const;

function Fields({
  providerId,
  current,
  onSaved,
}: {
  providerId: string;
  current: ProviderBillingView;
  onSaved?: (() => void) | undefined;
}) {
  const { t } = useTranslation('billing-setup');
  const update = useUpdateProviderBilling(providerId);
  const [values, setValues] = useState<ProviderBillingInput>({
    npi: current.npi ?? '',
    taxonomyCode: current.taxonomyCode ?? '',
    licenseState: current.licenseState ?? '',
    licenseNumber: current.licenseNumber ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const labels: Record<(typeof FIELDS)[number], string> = {
    npi: t('providerBilling.npi'),
    taxonomyCode: t('providerBilling.taxonomyCode'),
    licenseState: t('providerBilling.licenseState'),
    licenseNumber: t('providerBilling.licenseNumber'),
  };
  const descriptions: Partial<Record<(typeof FIELDS)[number], string>> = {
    npi: t('providerBilling.npiDescription'),
    taxonomyCode: t('providerBilling.taxonomyCodeDescription'),
    licenseState: t('providerBilling.licenseStateDescription'),
  };
  const maxLengths = { npi: 12, taxonomyCode: 10, licenseState: 2, licenseNumber: BILLING_LIMITS.licenseMax };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const parsed = ProviderBillingSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    update.mutate(values, {
      onSuccess: () => {
        setSaved(true);
        onSaved?.();
      },
      onError: (error) => {
        const fields = fieldErrorsFromServer(error);
        if (fields) setErrors(fields);
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('providerBilling.title')}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {FIELDS.map((field) => (
            <TextInput
              key={field}
              label={labels[field]}
              description={descriptions[field]}
              required
              value={values[field]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((previous) => ({ ...previous, [field]: value }));
              }}
              maxLength={maxLengths[field]}
              inputMode={field === 'npi' ? 'numeric' : undefined}
              autoComplete="off"
              error={errors[field] ? errorText(errors[field], { label: labels[field] }) : undefined}
            />
          ))}
        </SimpleGrid>
        {update.isError && !fieldErrorsFromServer(update.error) ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(update.error)}
          </Alert>
        ) : null}
        {saved ? (
          <Alert color="green" variant="light" role="status">
            {t('providerBilling.saved')}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={update.isPending}>
            {t('providerBilling.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
