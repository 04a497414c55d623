import '@mantine/charts/styles.css';

import { BarChart, LineChart } from '@mantine/charts';
import { Alert, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  APPOINTMENT_STATUSES,
  INSTRUMENT_DEFINITIONS,
  INSTRUMENTS,
  type AppointmentStatus,
  type Instrument,
  type ReportPeriod,
} from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { ScrollTable } from '../../../components/scroll-table.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { practiceReportQueryOptions, type PracticeReport } from '../api/reports-api.ts';

function isStatus(value: string): value is AppointmentStatus {
  return (APPOINTMENT_STATUSES as readonly string[]).includes(value);
}

/** The provider chart stacks these; every other status is "other" (the table lists each one). */
const STACKED = ['completed', 'no-show', 'cancelled'] as const;
const STACK_COLORS = { completed: 'teal.8', 'no-show': 'red.8', cancelled: 'orange.8', other: 'gray.6' } as const;

/** The practice reports of a period: appointments by status and provider, the rates, PHQ-9 and GAD-7 by month. */
export function PracticeReports({ period }: { period: ReportPeriod }) {
  const { t } = useTranslation('reports');
  const report = useQuery(practiceReportQueryOptions(period));
  if (report.isPending) {
    return <LoadingLine label={t('practice.loading')} />;
  }
  if (report.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(report.error)}
      </Alert>
    );
  }
  return (
    <Stack gap="lg" data-testid="practice-reports">
      <Rates report={report.data} />
      <AppointmentsByStatus report={report.data} />
      <AppointmentsByProvider report={report.data} />
      <Scores report={report.data} />
    </Stack>
  );
}

function Rates({ report }: { report: PracticeReport }) {
  const { t, i18n } = useTranslation('reports');
  const percent = (value: number | null) =>
    value === null
      ? t('practice.notApplicable')
      : new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  const cards = [
    { key: 'appointmentsTotal', value: report.appointmentsTotal.toLocaleString(i18n.language), detail: null },
    {
      key: 'noShowRate',
      value: percent(report.noShowRate),
      detail: t('practice.noShowDetail', { noShows: report.noShows, due: report.dueAppointments }),
    },
    {
      key: 'lateCancellationRate',
      value: percent(report.lateCancellationRate),
      detail: t('practice.lateCancellationDetail', { late: report.lateCancellations, total: report.appointmentsTotal }),
    },
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} component="dl" style={{ margin: 0 }}>
      {cards.map((card) => (
        <Paper key={card.key} withBorder p="sm" data-testid={`practice-${card.key}`}>
          <Text component="dt" size="sm" c="dimmed">
            {t(`practice.${card.key}`)}
          </Text>
          <Text component="dd" fz={24} fw={700} m={0}>
            {card.value}
            {card.detail ? (
              <Text component="span" display="block" size="xs" fw={400} c="dimmed">
                {card.detail}
              </Text>
            ) : null}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function AppointmentsByStatus({ report }: { report: PracticeReport }) {
  const { t, i18n } = useTranslation('reports');
  const label = (status: string) => (isStatus(status) ? t(`statuses.${status}`) : status);
  const data = report.byStatus.map((row) => ({ status: label(row.status), count: row.count }));
  return (
    <figure style={{ margin: 0 }} data-testid="chart-by-status">
      <figcaption>
        <Title order={3} fz="md" mb="xs">
          {t('practice.byStatus')}
        </Title>
      </figcaption>
      {report.appointmentsTotal === 0 ? (
        <Text>{t('practice.noAppointments')}</Text>
      ) : (
        <>
          <BarChart
            h={220}
            data={data}
            dataKey="status"
            series={[{ name: 'count', label: t('compliance.count'), color: 'clinical.8' }]}
            xAxisProps={{ interval: 0, angle: -30, textAnchor: 'end', height: 60 }}
            // The table below says the same for screen readers and keyboards: the drawing is left out of both.
            barChartProps={{ accessibilityLayer: false }}
            aria-hidden
          />
          <ScrollTable label={t('practice.byStatusCaption')} minWidth={260}>
            <Table striped>
              <Table.Caption>{t('practice.byStatusCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('practice.status')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('compliance.count')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.byStatus.map((row) => (
                  <Table.Tr key={row.status}>
                    <Table.Td>{label(row.status)}</Table.Td>
                    <Table.Td ta="right">{row.count.toLocaleString(i18n.language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </>
      )}
    </figure>
  );
}

function AppointmentsByProvider({ report }: { report: PracticeReport }) {
  const { t, i18n } = useTranslation('reports');
  const countOf = (byStatus: PracticeReport['byStatus'], status: string) =>
    byStatus.find((row) => row.status === status)?.count ?? 0;
  const data = report.byProvider.map((provider) => {
    const stacked = Object.fromEntries(STACKED.map((status) => [status, countOf(provider.byStatus, status)]));
    const other = provider.total - STACKED.reduce((total, status) => total + countOf(provider.byStatus, status), 0);
    return { provider: provider.name, ...stacked, other };
  });
  const series = [
    ...STACKED.map((status) => ({ name: status, label: t(`statuses.${status}`), color: STACK_COLORS[status] })),
    { name: 'other', label: t('practice.other'), color: STACK_COLORS.other },
  ];
  if (report.byProvider.length === 0) return null;
  return (
    <figure style={{ margin: 0 }} data-testid="chart-by-provider">
      <figcaption>
        <Title order={3} fz="md" mb="xs">
          {t('practice.byProvider')}
        </Title>
      </figcaption>
      <BarChart
        h={Math.max(160, 60 * report.byProvider.length)}
        data={data}
        dataKey="provider"
        type="stacked"
        orientation="vertical"
        yAxisProps={{ width: 110 }}
        series={series}
        withLegend
        barChartProps={{ accessibilityLayer: false }}
        aria-hidden
      />
      <ScrollTable label={t('practice.byProviderCaption')} minWidth={640}>
        <Table striped>
          <Table.Caption>{t('practice.byProviderCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('practice.provider')}</Table.Th>
              {APPOINTMENT_STATUSES.map((status) => (
                <Table.Th key={status} scope="col" ta="right">
                  {t(`statuses.${status}`)}
                </Table.Th>
              ))}
              <Table.Th scope="col" ta="right">
                {t('practice.total')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.byProvider.map((provider) => (
              <Table.Tr key={provider.providerId}>
                <Table.Th scope="row" fw={500}>
                  {provider.name}
                </Table.Th>
                {APPOINTMENT_STATUSES.map((status) => (
                  <Table.Td key={status} ta="right">
                    {countOf(provider.byStatus, status).toLocaleString(i18n.language)}
                  </Table.Td>
                ))}
                <Table.Td ta="right">{provider.total.toLocaleString(i18n.language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </figure>
  );
}

function monthLabel(month: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

const isInstrument = (value: string): value is Instrument => (INSTRUMENTS as readonly string[]).includes(value);

/**
 * The monthly means: the chart draws the PHQ-9 and the GAD-7 (one 0-27 axis; a PCL-5's 0-80 would flatten them),
 * the table below lists every instrument's.
 */
function Scores({ report }: { report: PracticeReport }) {
  const { t, i18n } = useTranslation('reports');
  const months = [...new Set(report.measures.map((row) => row.month))].sort();
  const meanOf = (instrument: string, month: string) =>
    report.measures.find((row) => row.instrument === instrument && row.month === month)?.mean ?? null;
  const data = months.map((month) => ({
    month: monthLabel(month, i18n.language),
    phq9: meanOf('phq9', month),
    gad7: meanOf('gad7', month),
  }));
  const instrumentName = (instrument: string) =>
    isInstrument(instrument) ? INSTRUMENT_DEFINITIONS[instrument].name : instrument;
  return (
    <figure style={{ margin: 0 }} data-testid="chart-scores">
      <figcaption>
        <Title order={3} fz="md" mb="xs">
          {t('practice.scores')}
        </Title>
      </figcaption>
      {report.measures.length === 0 ? (
        <Text>{t('practice.noScores')}</Text>
      ) : (
        <>
          <LineChart
            h={220}
            data={data}
            dataKey="month"
            series={[
              { name: 'phq9', label: INSTRUMENT_DEFINITIONS.phq9.name, color: 'clinical.8' },
              { name: 'gad7', label: INSTRUMENT_DEFINITIONS.gad7.name, color: 'orange.8' },
            ]}
            yAxisProps={{ domain: [0, INSTRUMENT_DEFINITIONS.phq9.maxScore] }}
            connectNulls
            withDots
            withLegend
            curveType="linear"
            lineChartProps={{ accessibilityLayer: false }}
            aria-hidden
          />
          <Text size="xs" c="dimmed" mt={4}>
            {t('practice.scoresNote')}
          </Text>
          <ScrollTable label={t('practice.scoresCaption')} minWidth={300}>
            <Table striped>
              <Table.Caption>{t('practice.scoresCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('practice.month')}</Table.Th>
                  <Table.Th scope="col">{t('practice.instrument')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('practice.mean')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('practice.completed')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.measures.map((row) => (
                  <Table.Tr key={`${row.month}-${row.instrument}`}>
                    <Table.Td>{monthLabel(row.month, i18n.language)}</Table.Td>
                    <Table.Td>{instrumentName(row.instrument)}</Table.Td>
                    <Table.Td ta="right">
                      {row.mean.toLocaleString(i18n.language, { maximumFractionDigits: 1 })}
                    </Table.Td>
                    <Table.Td ta="right">{row.count.toLocaleString(i18n.language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </>
      )}
    </figure>
  );
}
