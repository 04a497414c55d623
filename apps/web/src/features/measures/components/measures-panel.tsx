import '@mantine/charts/styles.css';

import { LineChart } from '@mantine/charts';
import { Alert, Button, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { INSTRUMENT_DEFINITIONS, INSTRUMENTS, type Instrument } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { describeError } from '../../../lib/errors.ts';
import {
  useQuestionnaireResults,
  useQuestionnaireSchedules,
  useSendQuestionnaire,
  useSetQuestionnaireSchedule,
  type Questionnaire,
  type QuestionnaireResult,
} from '../api/measures-api.ts';
import { QuestionnaireAnswers } from './questionnaire-answers.tsx';
import { formatInstantDate, formatInstantDateTime } from '../../../lib/practice-dates.ts';

/**
 * A patient's measures in the chart: each questionnaire's totals over time with its severity bands, every result
 * in a table (what the chart shows, for screen readers too), and the provider's controls: send one now, or before
 * each visit.
 */
export function MeasuresPanel({ patientId, canSend }: { patientId: string; canSend: boolean }) {
  const { t } = useTranslation('measures');
  const results = useQuestionnaireResults(patientId);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="measures-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="measures-title">
          {t('chart.title')}
        </Title>
        {canSend ? <SendControls patientId={patientId} /> : null}
        {results.isPending ? (
          <LoadingLine label={t('form.loading')} />
        ) : results.isError ? (
          <Alert color="red" variant="light">
            {t('chart.loadFailed')}
          </Alert>
        ) : results.data.length === 0 ? (
          <Text c="dimmed">{t('chart.empty')}</Text>
        ) : (
          <>
            {INSTRUMENTS.map((instrument) => {
              const rows = results.data.filter((r) => r.instrument === instrument && r.total !== null);
              return rows.length > 0 ? <InstrumentChart key={instrument} instrument={instrument} rows={rows} /> : null;
            })}
            <ResultsTable rows={results.data} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

function InstrumentChart({ instrument, rows }: { instrument: Instrument; rows: Questionnaire[] }) {
  const { t, i18n } = useTranslation('measures');
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  const data = rows.map((r) => ({
    date: formatInstantDate(r.completedAt ?? r.createdAt, i18n.language),
    total: r.total,
  }));
  const bands = definition.bands.map((b) => `${t(`band.${b.key}`)} ${b.min}–${b.max}`).join(', ');
  return (
    <figure style={{ margin: 0 }} data-testid={`measure-chart-${instrument}`}>
      <Text component="figcaption" fw={600} mb="xs">
        {t(`instrument.${instrument}`)}
      </Text>
      <LineChart
        h={220}
        data={data}
        dataKey="date"
        series={[{ name: 'total', label: t('chart.total'), color: 'clinical.8' }]}
        yAxisProps={{
          domain: [0, definition.maxScore],
          ticks: [...definition.bands.map((b) => b.min), definition.maxScore],
        }}
        referenceLines={definition.bands.slice(1).map((b) => ({
          y: b.min,
          label: t(`band.${b.key}`),
          color: 'gray.6',
        }))}
        curveType="linear"
        withDots
        // The table below says the same for screen readers and keyboards: the drawing is left out of both.
        lineChartProps={{ accessibilityLayer: false }}
        aria-hidden
      />
      <Text size="xs" c="dimmed" mt={4}>
        {t('chart.bands', { bands })}
      </Text>
    </figure>
  );
}

function ResultsTable({ rows }: { rows: QuestionnaireResult[] }) {
  const { t, i18n } = useTranslation('measures');
  const [opened, setOpened] = useState<QuestionnaireResult | null>(null);
  const titleOf = (r: QuestionnaireResult) =>
    t('answers.title', {
      name: t(`instrument.${r.instrument}`),
      // With the time: two results of one day stay apart.
      date: formatInstantDateTime(r.completedAt ?? r.createdAt, i18n.language),
    });
  return (
    <>
      <ScrollTable label={t('chart.tableCaption')} minWidth={320}>
        <Table striped>
          <Table.Caption>{t('chart.tableCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('chart.date')}</Table.Th>
              <Table.Th>{t('chart.instrument')}</Table.Th>
              <Table.Th>{t('chart.score')}</Table.Th>
              <Table.Th>{t('chart.severity')}</Table.Th>
              <Table.Th>{t('chart.answers')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...rows].reverse().map((r) => (
              <Table.Tr key={r.id} data-testid="measure-result" data-questionnaire-id={r.id}>
                <Table.Td>{formatInstantDate(r.completedAt ?? r.createdAt, i18n.language)}</Table.Td>
                <Table.Td>{INSTRUMENT_DEFINITIONS[r.instrument].name}</Table.Td>
                <Table.Td>{r.total ?? '–'}</Table.Td>
                <Table.Td>{r.band ? t(`band.${r.band as 'mild'}`) : '–'}</Table.Td>
                <Table.Td>
                  <Button variant="subtle" size="compact-sm" onClick={() => setOpened(r)} aria-label={titleOf(r)}>
                    {t('chart.answers')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {opened ? <QuestionnaireAnswers result={opened} title={titleOf(opened)} onClose={() => setOpened(null)} /> : null}
    </>
  );
}

function SendControls({ patientId }: { patientId: string }) {
  const { t } = useTranslation('measures');
  const send = useSendQuestionnaire();
  const schedules = useQuestionnaireSchedules(patientId);
  const setSchedule = useSetQuestionnaireSchedule();
  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        {INSTRUMENTS.map((instrument) => (
          <Button
            key={instrument}
            variant="light"
            size="sm"
            loading={send.isPending && send.variables.instrument === instrument}
            onClick={() => send.mutate({ patientId, instrument })}
          >
            {t('chart.send')}: {INSTRUMENT_DEFINITIONS[instrument].name}
          </Button>
        ))}
      </Group>
      {send.isSuccess ? (
        <Text size="sm" c="teal.9" role="status">
          {t('chart.sent')}
        </Text>
      ) : null}
      {send.error ? (
        <Text size="sm" c="red.9" role="alert">
          {describeError(send.error)}
        </Text>
      ) : null}
      {INSTRUMENTS.map((instrument) => (
        <Switch
          key={instrument}
          label={t('chart.beforeEachVisit', { name: INSTRUMENT_DEFINITIONS[instrument].name })}
          checked={schedules.data?.includes(instrument) ?? false}
          disabled={schedules.isPending || setSchedule.isPending}
          onChange={(e) => setSchedule.mutate({ patientId, instrument, beforeEachVisit: e.currentTarget.checked })}
        />
      ))}
    </Stack>
  );
}
