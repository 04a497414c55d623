import { Radio, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { BILLING_LIMITS, VISIT_CODING_AFTER } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import type { BillingIdentityFormValues } from '../hooks/use-settings-form.ts';
import { SettingBlock, SourceLine, type SettingsBlockProps } from './setting-block.tsx';

const IDENTITY_FIELDS: {
  field: keyof BillingIdentityFormValues;
  maxLength: number;
  autoComplete: string;
}[] = [
  { field: 'legalName', maxLength: BILLING_LIMITS.legalNameMax, autoComplete: 'organization' },
  { field: 'street', maxLength: BILLING_LIMITS.streetMax, autoComplete: 'street-address' },
  { field: 'city', maxLength: BILLING_LIMITS.cityMax, autoComplete: 'address-level2' },
  { field: 'state', maxLength: 2, autoComplete: 'address-level1' },
  { field: 'zip', maxLength: 10, autoComplete: 'postal-code' },
  { field: 'taxId', maxLength: 10, autoComplete: 'off' },
];

/**
 * Billing (decision 073): the practice's billing identity that superbills and statements print (all of it or none),
 * and when a visit may be coded: once it is completed, or once its note is signed too.
 */
export function BillingSettingsBlock({ form, fieldError, source, onReset }: SettingsBlockProps) {
  const { t } = useTranslation('settings');
  const { values } = form;
  // An example of the shape the field takes, where one helps.
  const descriptions: Partial<Record<keyof BillingIdentityFormValues, string>> = {
    state: t('fields.billingIdentity.state.description'),
    taxId: t('fields.billingIdentity.taxId.description'),
  };
  return (
    <SettingBlock title={t('sections.billing')} description={t('sections.billingDescription')}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {IDENTITY_FIELDS.map(({ field, maxLength, autoComplete }) => {
          const label = t(`fields.billingIdentity.${field}.label`);
          return (
            <TextInput
              key={field}
              label={label}
              description={descriptions[field]}
              value={values.billingIdentity[field]}
              onChange={(event) => form.setBillingIdentityField(field, event.currentTarget.value)}
              maxLength={maxLength}
              autoComplete={autoComplete}
              error={fieldError(`billingIdentity.${field}`, label)}
            />
          );
        })}
      </SimpleGrid>
      <SourceLine source={source('billingIdentity')} label={t('fields.billingIdentity.label')} onReset={onReset} />
      <Radio.Group
        label={t('fields.visitCodingAfter.label')}
        description={t('fields.visitCodingAfter.description')}
        value={values.visitCodingAfter}
        onChange={(value) => {
          const chosen = VISIT_CODING_AFTER.find((option) => option === value);
          if (chosen) form.setField('visitCodingAfter', chosen);
        }}
        error={fieldError('visitCodingAfter')}
      >
        <Stack gap="xs" mt="xs">
          {VISIT_CODING_AFTER.map((option) => (
            <Radio key={option} value={option} label={t(`visitCodingAfter.${option}`)} />
          ))}
        </Stack>
      </Radio.Group>
      <SourceLine source={source('visitCodingAfter')} label={t('fields.visitCodingAfter.label')} onReset={onReset} />
    </SettingBlock>
  );
}
