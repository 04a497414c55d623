import { Alert, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { CURRENT_DIAGNOSIS_STATUSES, INSTRUMENT_DEFINITIONS, INSTRUMENTS } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatInstantDate } from '../../../lib/practice-dates.ts';
import { usePatientDiagnoses } from '../api/diagnoses-api.ts';
import type { TimelineScore } from './case-timeline.tsx';
import { MedicationsPanel } from './medications-panel.tsx';

/**
 * The patient's record beside a medication-management or evaluation note while it is written (issue 27, point 7):
 * the current diagnoses, the medications (changed from here once the draft is saved: each change is linked to the
 * note) and the latest score of each questionnaire.
 */
export function NoteRecordAside({
  patientId,
  noteId,
  scores,
}: {
  patientId: string;
  noteId: string | null;
  scores: readonly TimelineScore[] | null;
}) {
  const { t, i18n } = useTranslation(['clinical-record', 'measures']);
  const diagnoses = usePatientDiagnoses(patientId);
  const current = (diagnoses.data ?? []).filter((d) => CURRENT_DIAGNOSIS_STATUSES.includes(d.status));
  return (
    <Stack gap="sm" component="aside" aria-labelledby="note-record-title" data-testid="note-record">
      <Title order={3} size="h4" id="note-record-title">
        {t('noteRecord.title')}
      </Title>
      <Paper withBorder p="sm" radius="md">
        <Text fw={600} size="sm" mb={4}>
          {t('diagnoses.title')}
        </Text>
        {diagnoses.isPending ? (
          <LoadingLine label={t('diagnoses.loading')} />
        ) : current.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('diagnoses.empty')}
          </Text>
        ) : (
          <Stack gap={2} component="ul" style={{ paddingLeft: 18, margin: 0 }}>
            {current.map((d) => (
              <Text component="li" size="sm" key={d.id}>
                <strong>{d.code}</strong> {d.title}
                {d.primary ? ` · ${t('diagnoses.primary')}` : ''}
                {d.status !== 'active' ? ` · ${t(`diagnoses.status.${d.status}`)}` : ''}
              </Text>
            ))}
          </Stack>
        )}
      </Paper>
      <Paper withBorder p="sm" radius="md">
        <Text fw={600} size="sm" mb={4}>
          {t('noteRecord.latestScores')}
        </Text>
        {scores === null ? (
          <LoadingLine label={t('timeline.loading')} />
        ) : (
          <Group gap="xs">
            {INSTRUMENTS.map((instrument) => {
              const latest = scores
                .filter((s) => s.instrument === instrument)
                .sort((a, b) => b.at.localeCompare(a.at))[0];
              if (!latest) return null;
              const band = INSTRUMENT_DEFINITIONS[instrument].bands.find(
                (b) => latest.total >= b.min && latest.total <= b.max,
              );
              return (
                <ToneBadge key={instrument} tone="blue" data-testid={`latest-${instrument}`}>
                  {INSTRUMENT_DEFINITIONS[instrument].name} {latest.total}
                  {band ? ` · ${t(`band.${band.key}`, { ns: 'measures' })}` : ''} ·{' '}
                  {formatInstantDate(latest.at, i18n.language)}
                </ToneBadge>
              );
            })}
            {scores.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('noteRecord.noScores')}
              </Text>
            ) : null}
          </Group>
        )}
      </Paper>
      {noteId === null ? (
        <Alert variant="light" color="blue">
          {t('noteRecord.saveFirst')}
        </Alert>
      ) : null}
      <MedicationsPanel patientId={patientId} canWrite={noteId !== null} noteId={noteId} />
    </Stack>
  );
}
