import { Alert, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  INSTRUMENT_DEFINITIONS,
  OUTCOME_INSTRUMENTS,
  OUTCOME_MEDICATION_LOOKBACK_DAYS,
  OUTCOME_MIN_FOLLOW_UP_DAYS,
  OUTCOME_THRESHOLDS,
  type OutcomeInstrument,
  type ReportPeriod,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { practiceOutcomesQueryOptions } from '../api/outcomes-api.ts';
import { OutcomeGroupTable, OutcomeSummary, TooFewNote } from './outcome-tables.tsx';

/**
 * The practice's outcomes of a period on /admin/reports (decision 064): the instrument, what response and
 * remission mean, the whole, then by provider, primary diagnosis and medication class started.
 */
export function OutcomesSection({ period }: { period: ReportPeriod }) {
  const { t } = useTranslation('reports');
  const [instrument, setInstrument] = useState<OutcomeInstrument>('phq9');
  const outcomes = useQuery(practiceOutcomesQueryOptions({ ...period, instrument }));
  const { baselineMin, remissionBelow } = OUTCOME_THRESHOLDS[instrument];
  const name = INSTRUMENT_DEFINITIONS[instrument].name;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} id="outcomes-heading">
          {t('outcomes.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('outcomes.intro')}
        </Text>
      </Stack>
      <SegmentedControl
        aria-label={t('outcomes.instrument')}
        value={instrument}
        onChange={(value) => {
          setInstrument(value);
        }}
        data={OUTCOME_INSTRUMENTS.map((value) => ({ value, label: INSTRUMENT_DEFINITIONS[value].name }))}
        style={{ alignSelf: 'flex-start' }}
      />
      <Text size="sm" component="div">
        <ul style={{ margin: 0, paddingInlineStart: '1.2em' }}>
          <li>{t('outcomes.definitions.counted', { name, baselineMin, days: OUTCOME_MIN_FOLLOW_UP_DAYS })}</li>
          <li>{t('outcomes.definitions.response')}</li>
          <li>{t('outcomes.definitions.remission', { remissionBelow })}</li>
          <li>{t('outcomes.definitions.classes', { days: OUTCOME_MEDICATION_LOOKBACK_DAYS })}</li>
        </ul>
      </Text>
      {outcomes.isPending ? (
        <LoadingLine label={t('outcomes.loading')} />
      ) : outcomes.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(outcomes.error)}
        </Alert>
      ) : (
        <Stack gap="lg" data-testid="practice-outcomes">
          <OutcomeSummary figures={outcomes.data} />
          <TooFewNote />
          <OutcomeGroupTable grouping="provider" groups={outcomes.data.byProvider} />
          <OutcomeGroupTable grouping="diagnosis" groups={outcomes.data.byDiagnosis} />
          <OutcomeGroupTable grouping="medicationClass" groups={outcomes.data.byMedicationClass} />
        </Stack>
      )}
    </Stack>
  );
}
