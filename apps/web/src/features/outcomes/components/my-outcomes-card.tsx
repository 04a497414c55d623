import { Alert, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { addDays, INSTRUMENT_DEFINITIONS, OUTCOME_INSTRUMENTS, OUTCOME_THRESHOLDS, todayIn } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { practiceOutcomesQueryOptions } from '../api/outcomes-api.ts';
import { TooFewNote, usePercent } from './outcome-tables.tsx';

/** The card's period: the last 365 days up to today, in the practice's time zone. */
export function lastTwelveMonths(timeZone: string, now: Date = new Date()): { startDate: string; endDate: string } {
  const endDate = todayIn(timeZone, now);
  return { startDate: addDays(endDate, -364), endDate };
}

/**
 * A provider's dashboard card (decision 064): response and remission among their own patients over the last
 * twelve months, one line per instrument. The server answers a provider their own patients only.
 */
export function MyOutcomesCard({ timeZone }: { timeZone: string }) {
  const { t, i18n } = useTranslation('reports');
  const percent = usePercent();
  const period = lastTwelveMonths(timeZone);
  const results = useQueries({
    queries: OUTCOME_INSTRUMENTS.map((instrument) => practiceOutcomesQueryOptions({ ...period, instrument })),
  });
  const failed = results.find((result) => result.isError);
  const rate = (value: number | null) => (value === null ? t('outcomes.tooFewShort') : percent(value));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-outcomes-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="my-outcomes-heading">
          {t('outcomes.card.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('outcomes.card.intro', OUTCOME_THRESHOLDS.phq9)}
        </Text>
        {failed ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(failed.error)}
          </Alert>
        ) : results.some((result) => result.isPending) ? (
          <LoadingLine label={t('outcomes.loading')} />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="my-outcomes">
            {results.map((result, index) => {
              const instrument = OUTCOME_INSTRUMENTS[index]!;
              const figures = result.data!;
              const rows = [
                { key: 'patients', value: figures.patients.toLocaleString(i18n.language), detail: null },
                {
                  key: 'response',
                  value: rate(figures.responseRate),
                  detail: t('outcomes.ofPatients', { count: figures.responders, total: figures.patients }),
                },
                {
                  key: 'remission',
                  value: rate(figures.remissionRate),
                  detail: t('outcomes.ofPatients', { count: figures.remitters, total: figures.patients }),
                },
              ] as const;
              return (
                <Paper key={instrument} withBorder p="sm" radius="md">
                  <Title order={3} fz="md" mb={4}>
                    {INSTRUMENT_DEFINITIONS[instrument].name}
                  </Title>
                  <SimpleGrid cols={3} spacing="xs" component="dl" style={{ margin: 0 }}>
                    {rows.map((row) => (
                      <div key={row.key}>
                        <Text component="dt" size="xs" c="dimmed">
                          {row.key === 'patients' ? t('outcomes.patients') : t(`outcomes.card.${row.key}`)}
                        </Text>
                        <Text component="dd" fw={700} m={0}>
                          {row.value}
                          {row.detail ? (
                            <Text span display="block" size="xs" fw={400} c="dimmed">
                              {row.detail}
                            </Text>
                          ) : null}
                        </Text>
                      </div>
                    ))}
                  </SimpleGrid>
                </Paper>
              );
            })}
          </SimpleGrid>
        )}
        <TooFewNote />
      </Stack>
    </Paper>
  );
}
