import { Autocomplete, Checkbox, Group, NativeSelect, NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import {
  AS_NEEDED_REASON_MAX,
  DOSE_UNIT_LABELS,
  DOSE_UNITS,
  FREQUENCIES,
  FREQUENCY_LABELS,
  ROUTE_LABELS,
  ROUTES,
  STRENGTH_MAX,
  type DoseUnit,
  type Frequency,
  type Route,
} from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { errorText } from '../../../lib/error-text.ts';
import type { FieldErrors } from '../../../lib/form-errors.ts';
import { labelLanguage } from '../utils/label-language.ts';

/** A dose as a form holds it: the amount as typed (a number, or '' while empty). */
export interface DoseDraft {
  strength: string;
  doseAmount: number | '';
  doseUnit: DoseUnit;
  route: Route;
  frequency: Frequency;
  asNeeded: boolean;
  asNeededReason: string;
}

export const EMPTY_DOSE: DoseDraft = {
  strength: '',
  doseAmount: '',
  doseUnit: 'mg',
  route: 'oral',
  frequency: 'once-daily',
  asNeeded: false,
  asNeededReason: '',
};

/** The dose as the shared schemas take it (an empty amount stays missing, so the schema names it). */
export function doseInput(dose: DoseDraft) {
  return {
    strength: dose.strength,
    doseAmount: dose.doseAmount === '' ? undefined : dose.doseAmount,
    doseUnit: dose.doseUnit,
    route: dose.route,
    frequency: dose.frequency,
    asNeeded: dose.asNeeded,
    asNeededReason: dose.asNeeded ? dose.asNeededReason : null,
  };
}

/**
 * The structured dose of a medication: strength (the drug's usual strengths suggested), amount and unit, route,
 * how often, and whether as needed (and for what). `errors` are keyed by field, as the schemas name them.
 */
export function DoseFields({
  dose,
  onChange,
  strengths = [],
  errors,
  errorPrefix = '',
}: {
  dose: DoseDraft;
  onChange: (dose: DoseDraft) => void;
  strengths?: readonly string[];
  errors: FieldErrors;
  /** The path the schema puts these fields under ('dose.' for a change). */
  errorPrefix?: string;
}) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  const set = <K extends keyof DoseDraft>(key: K, value: DoseDraft[K]) => onChange({ ...dose, [key]: value });
  const error = (field: string) => {
    const message = errors[`${errorPrefix}${field}`] ?? (errorPrefix ? undefined : errors[field]);
    return message ? errorText(message) : undefined;
  };
  return (
    <>
      <Autocomplete
        label={t('medications.form.strength')}
        value={dose.strength}
        onChange={(value) => set('strength', value)}
        data={[...strengths]}
        maxLength={STRENGTH_MAX}
        error={error('strength')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <NumberInput
          label={t('medications.form.doseAmount')}
          required
          min={0}
          decimalScale={4}
          allowNegative={false}
          value={dose.doseAmount}
          onChange={(value) => set('doseAmount', typeof value === 'number' ? value : '')}
          error={error('doseAmount')}
        />
        <NativeSelect
          label={t('medications.form.doseUnit')}
          required
          value={dose.doseUnit}
          onChange={(e) => set('doseUnit', e.currentTarget.value as DoseUnit)}
          data={DOSE_UNITS.map((u) => ({ value: u, label: DOSE_UNIT_LABELS[u][language] }))}
          error={error('doseUnit')}
        />
        <NativeSelect
          label={t('medications.form.route')}
          required
          value={dose.route}
          onChange={(e) => set('route', e.currentTarget.value as Route)}
          data={ROUTES.map((r) => ({ value: r, label: ROUTE_LABELS[r][language] }))}
          error={error('route')}
        />
        <NativeSelect
          label={t('medications.form.frequency')}
          required
          value={dose.frequency}
          onChange={(e) => set('frequency', e.currentTarget.value as Frequency)}
          data={FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f][language] }))}
          error={error('frequency')}
        />
      </SimpleGrid>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Checkbox
          label={t('medications.form.asNeeded')}
          checked={dose.asNeeded}
          onChange={(e) => set('asNeeded', e.currentTarget.checked)}
        />
        {dose.asNeeded ? (
          <TextInput
            label={t('medications.form.asNeededReason')}
            placeholder={t('medications.form.asNeededReasonHint')}
            maxLength={AS_NEEDED_REASON_MAX}
            value={dose.asNeededReason}
            onChange={(e) => set('asNeededReason', e.currentTarget.value)}
            error={error('asNeededReason')}
          />
        ) : null}
      </Group>
    </>
  );
}
