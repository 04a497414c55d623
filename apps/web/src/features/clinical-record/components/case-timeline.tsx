import '@mantine/charts/styles.css';

import { Alert, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { INSTRUMENT_DEFINITIONS, INSTRUMENTS, type Instrument } from '@telehealth/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ComposedChart, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, XAxis, YAxis } from 'recharts';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { usePatientMedications, type Medication } from '../api/medications-api.ts';
import { dayMs, doseSegments, medicationChanges, type DoseSegment } from '../utils/dose-segments.ts';

/** A completed score as the time line draws it. */
export interface TimelineScore {
  instrument: Instrument;
  total: number;
  /** When it was completed (an ISO instant). */
  at: string;
}

const DAY = 86_400_000;
/** The width every chart keeps left of its plot (its y-axis), so that all of them share one time axis. */
const AXIS_WIDTH = 44;
const MARGIN = { top: 6, right: 16, bottom: 0, left: 0 };
const ROW_HEIGHT = 30;
/** Band shades from the mildest to the most severe (each band is named in the caption and the table too). */
const BAND_FILLS = ['#e6f4ea', '#fdf6d8', '#fde9d2', '#fbd9d3', '#f6c6c6'];
const SEGMENT_FILL = 'var(--mantine-color-clinical-7)';
const HELD_FILL = 'var(--mantine-color-gray-4)';

/**
 * The case at a glance (issue 27, point 4): the medications as bars over time (one row per drug, one stretch per
 * dose, held stretches grey, each change a dashed line through the scores) above each rating scale's scores with its
 * severity bands, all on one time axis, so a provider sees what changed when the scores moved. The drawing is for
 * the eye; the same events and scores are in a table (the switch), for screen readers and keyboards.
 */
export function CaseTimeline({ patientId, scores }: { patientId: string; scores: readonly TimelineScore[] | null }) {
  const { t } = useTranslation('clinical-record');
  const medications = usePatientMedications(patientId);
  const [asTable, setAsTable] = useState(false);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="case-timeline-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="case-timeline-title">
          {t('timeline.title')}
        </Title>
        {medications.isPending || scores === null ? (
          <LoadingLine label={t('timeline.loading')} />
        ) : medications.isError ? (
          <Alert color="red" variant="light">
            {t('timeline.loadFailed')}
          </Alert>
        ) : medications.data.medications.length === 0 && scores.length === 0 ? (
          <Text c="dimmed">{t('timeline.empty')}</Text>
        ) : (
          <>
            <Switch
              label={t('timeline.asTable')}
              checked={asTable}
              onChange={(e) => setAsTable(e.currentTarget.checked)}
            />
            {asTable ? (
              <TimelineTable medications={medications.data.medications} scores={scores} />
            ) : (
              <TimelineCharts medications={medications.data.medications} scores={scores} />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function TimelineCharts({ medications, scores }: { medications: Medication[]; scores: readonly TimelineScore[] }) {
  const { t, i18n } = useTranslation(['clinical-record', 'measures']);
  const today = dayMs(new Date().toISOString().slice(0, 10)) + DAY;
  const rows = useMemo(
    () => medications.map((m) => doseSegments(m, today)).filter((s) => s.length > 0),
    [medications, today],
  );
  const changes = useMemo(() => medicationChanges(medications), [medications]);
  const times = [...rows.flat().map((s) => s.from), ...scores.map((s) => Date.parse(s.at)), today];
  const start = Math.min(...times) - 3 * DAY;
  const domain: [number, number] = [start, today];
  const tick = (value: number) => formatCalendarDate(new Date(value).toISOString().slice(0, 10), i18n.language);
  // The bars' axis is drawn without ticks or line rather than hidden: a hidden axis leaves recharts no scale for
  // the reference areas that draw the bars.
  const xAxis = (bare: boolean) => (
    <XAxis
      type="number"
      dataKey="at"
      domain={domain}
      scale="time"
      allowDataOverflow
      tickFormatter={tick}
      tickCount={5}
      fontSize={12}
      {...(bare ? { tick: false, axisLine: false, tickLine: false, height: 1 } : {})}
    />
  );
  return (
    <figure style={{ margin: 0 }} aria-labelledby="case-timeline-caption" data-testid="case-timeline">
      <div aria-hidden>
        {rows.length > 0 ? (
          <ResponsiveContainer width="100%" height={rows.length * ROW_HEIGHT + 12}>
            {/* Two corner points give both axes their scales; the bars are reference areas between them. */}
            <ComposedChart
              data={[
                { at: domain[0], row: 0 },
                { at: domain[1], row: rows.length },
              ]}
              margin={MARGIN}
              accessibilityLayer={false}
            >
              {xAxis(true)}
              <YAxis
                type="number"
                dataKey="row"
                domain={[0, rows.length]}
                width={AXIS_WIDTH}
                tick={false}
                axisLine={false}
                reversed
              />
              <Line dataKey="row" stroke="none" dot={false} activeDot={false} isAnimationActive={false} />
              {rows.flatMap((segments, row) =>
                segments.map((segment, i) => segmentArea(segment, row, `${row}-${i}`, t('timeline.held'))),
              )}
            </ComposedChart>
          </ResponsiveContainer>
        ) : null}
        {INSTRUMENTS.map((instrument) => {
          const points = scores
            .filter((s) => s.instrument === instrument)
            .map((s) => ({ at: Date.parse(s.at), total: s.total }))
            .sort((a, b) => a.at - b.at);
          if (points.length === 0) return null;
          const definition = INSTRUMENT_DEFINITIONS[instrument];
          return (
            <div key={instrument} data-testid={`timeline-scores-${instrument}`}>
              <Text size="sm" fw={600} mt="xs" ml={AXIS_WIDTH}>
                {t(`instrument.${instrument}`, { ns: 'measures' })}
              </Text>
              <ResponsiveContainer width="100%" height={170}>
                <ComposedChart data={points} margin={MARGIN} accessibilityLayer={false}>
                  {xAxis(false)}
                  <YAxis
                    type="number"
                    domain={[0, definition.maxScore]}
                    width={AXIS_WIDTH}
                    fontSize={12}
                    ticks={[...definition.bands.map((b) => b.min), definition.maxScore]}
                  />
                  {definition.bands.map((band, i) => (
                    <ReferenceArea
                      key={band.key}
                      y1={band.min}
                      y2={band.max + 1 > definition.maxScore ? definition.maxScore : band.max + 1}
                      fill={BAND_FILLS[Math.min(i, BAND_FILLS.length - 1)]}
                      fillOpacity={1}
                      ifOverflow="hidden"
                    />
                  ))}
                  {changes.map((change) => (
                    <ReferenceLine
                      key={`${change.medicationId}-${change.at}-${change.kind}`}
                      x={change.at}
                      stroke="var(--mantine-color-gray-7)"
                      strokeDasharray="4 3"
                    />
                  ))}
                  <Line
                    type="linear"
                    dataKey="total"
                    stroke="var(--mantine-color-clinical-9)"
                    strokeWidth={2}
                    dot={{ r: 3 }}
                    isAnimationActive={false}
                  />
                </ComposedChart>
              </ResponsiveContainer>
            </div>
          );
        })}
      </div>
      <Text component="figcaption" id="case-timeline-caption" size="xs" c="dimmed">
        {t('timeline.caption')}
      </Text>
    </figure>
  );
}

/**
 * One stretch of a medication: a bar with the drug and its dose ("held" while held). A function, not a component:
 * recharts reads its reference areas among the chart's direct children.
 */
function segmentArea(segment: DoseSegment, row: number, key: string, heldLabel: string) {
  const held = segment.dose === null;
  return (
    <ReferenceArea
      key={key}
      x1={segment.from}
      x2={Math.max(segment.to, segment.from + DAY)}
      y1={row + 0.12}
      y2={row + 0.88}
      fill={held ? HELD_FILL : SEGMENT_FILL}
      fillOpacity={held ? 1 : 0.85}
      stroke="#fff"
      ifOverflow="hidden"
      label={{
        value: `${segment.drugName} ${segment.dose ?? heldLabel}`,
        position: 'insideLeft',
        fill: held ? '#1a1b1e' : '#fff',
        fontSize: 12,
      }}
    />
  );
}

/** The same events and scores, one row each, oldest first: what the drawing shows, in words. */
function TimelineTable({ medications, scores }: { medications: Medication[]; scores: readonly TimelineScore[] }) {
  const { t, i18n } = useTranslation(['clinical-record', 'measures']);
  const rows = [
    ...medicationChanges(medications).map((change) => ({
      at: change.at,
      key: `m-${change.medicationId}-${change.at}-${change.kind}`,
      what: [change.drugName, t(`medications.events.${change.kind}`), change.dose].filter(Boolean).join(' · '),
    })),
    ...scores.map((score) => {
      const definition = INSTRUMENT_DEFINITIONS[score.instrument];
      const band = definition.bands.find((b) => score.total >= b.min && score.total <= b.max);
      return {
        at: Date.parse(score.at),
        key: `s-${score.instrument}-${score.at}`,
        what: `${definition.name} ${score.total}${band ? ` (${t(`band.${band.key}`, { ns: 'measures' })})` : ''}`,
      };
    }),
  ].sort((a, b) => a.at - b.at);
  return (
    <ScrollTable label={t('timeline.tableCaption')} minWidth={300}>
      <Table striped>
        <Table.Caption>{t('timeline.tableCaption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('timeline.date')}</Table.Th>
            <Table.Th>{t('timeline.what')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key} data-testid="timeline-row">
              <Table.Td>{formatCalendarDate(new Date(row.at).toISOString().slice(0, 10), i18n.language)}</Table.Td>
              <Table.Td>{row.what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
