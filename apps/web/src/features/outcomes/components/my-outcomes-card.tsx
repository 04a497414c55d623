import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { addDays, INSTRUMENT_DEFINITIONS, OUTCOME_INSTRUMENTS, OUTCOME_THRESHOLDS, todayIn } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
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
          <ScrollTable label={t('outcomes.card.title')} minWidth={340}>
            <Table data-testid="my-outcomes">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('outcomes.instrument')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('outcomes.patients')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('outcomes.responseRate')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('outcomes.remissionRate')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((result, index) => {
                  const instrument = OUTCOME_INSTRUMENTS[index]!;
                  const figures = result.data!;
                  return (
                    <Table.Tr key={instrument}>
                      <Table.Th scope="row" fw={500}>
                        {INSTRUMENT_DEFINITIONS[instrument].name}
                      </Table.Th>
                      <Table.Td ta="right">{figures.patients.toLocaleString(i18n.language)}</Table.Td>
                      <Table.Td ta="right">
                        {rate(figures.responseRate)}
                        <Text span display="block" size="xs" c="dimmed">
                          {t('outcomes.ofPatients', { count: figures.responders, total: figures.patients })}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        {rate(figures.remissionRate)}
                        <Text span display="block" size="xs" c="dimmed">
                          {t('outcomes.ofPatients', { count: figures.remitters, total: figures.patients })}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
        <TooFewNote />
      </Stack>
    </Paper>
  );
}
