import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatCalendarDate, formatInstantDate } from '../../../lib/practice-dates.ts';
import { usePatientDiagnoses, type Diagnosis } from '../api/diagnoses-api.ts';
import { DiagnosisFormModal } from './diagnosis-form-modal.tsx';
import { DiagnosisHistoryModal } from './diagnosis-history-modal.tsx';

/** The colour of a status badge (each with its word beside it, never the colour alone). */
const STATUS_TONE = { active: 'red', 'rule-out': 'yellow', 'in-remission': 'teal', resolved: 'gray' } as const;

/**
 * A patient's problem list in the chart (decision 062): each diagnosis with its ICD-10-CM code, title, status,
 * onset, whether it is primary, its comment and who changed it last; a code off the product's list is marked. The
 * patient's provider adds and changes entries and reads each one's versions; others read only.
 */
export function DiagnosesPanel({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t } = useTranslation('clinical-record');
  const diagnoses = usePatientDiagnoses(patientId);
  const [editing, setEditing] = useState<Diagnosis | 'new' | null>(null);
  const [historyOf, setHistoryOf] = useState<Diagnosis | null>(null);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="diagnoses-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="diagnoses-title">
            {t('diagnoses.title')}
          </Title>
          {canWrite ? (
            <Button size="sm" onClick={() => setEditing('new')}>
              {t('diagnoses.add')}
            </Button>
          ) : null}
        </Group>
        {diagnoses.isPending ? (
          <LoadingLine label={t('diagnoses.loading')} />
        ) : diagnoses.isError ? (
          <Alert color="red" variant="light">
            {t('diagnoses.loadFailed')}
          </Alert>
        ) : diagnoses.data.length === 0 ? (
          <Text c="dimmed">{t('diagnoses.empty')}</Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {diagnoses.data.map((diagnosis) => (
              <DiagnosisItem
                key={diagnosis.id}
                diagnosis={diagnosis}
                onEdit={canWrite ? () => setEditing(diagnosis) : null}
                onHistory={() => setHistoryOf(diagnosis)}
              />
            ))}
          </Stack>
        )}
      </Stack>
      {editing !== null ? (
        <DiagnosisFormModal
          patientId={patientId}
          diagnosis={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {historyOf ? <DiagnosisHistoryModal diagnosis={historyOf} onClose={() => setHistoryOf(null)} /> : null}
    </Paper>
  );
}

function DiagnosisItem({
  diagnosis,
  onEdit,
  onHistory,
}: {
  diagnosis: Diagnosis;
  onEdit: (() => void) | null;
  onHistory: () => void;
}) {
  const { t, i18n } = useTranslation('clinical-record');
  const name = `${diagnosis.code} ${diagnosis.title}`;
  return (
    <Paper component="li" withBorder p="sm" radius="sm" data-testid="diagnosis">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={700}>{diagnosis.code}</Text>
          <Text>{diagnosis.title}</Text>
        </Group>
        <Group gap="xs" wrap="wrap">
          <ToneBadge tone={STATUS_TONE[diagnosis.status]}>{t(`diagnoses.status.${diagnosis.status}`)}</ToneBadge>
          {diagnosis.primary ? (
            <ToneBadge tone="blue" strong>
              {t('diagnoses.primary')}
            </ToneBadge>
          ) : null}
          {diagnosis.listed ? null : <ToneBadge tone="orange">{t('diagnoses.notListed')}</ToneBadge>}
        </Group>
        <Text size="sm" c="dimmed">
          {diagnosis.onsetDate
            ? `${t('diagnoses.onset')}: ${formatCalendarDate(diagnosis.onsetDate, i18n.language)} · `
            : ''}
          {t('diagnoses.changedBy', {
            name: diagnosis.updatedByName,
            date: formatInstantDate(diagnosis.updatedAt, i18n.language),
          })}
        </Text>
        {diagnosis.comment ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {diagnosis.comment}
          </Text>
        ) : null}
        <Group gap="xs">
          {onEdit ? (
            <Button size="compact-sm" variant="light" onClick={onEdit} aria-label={t('diagnoses.editOf', { name })}>
              {t('diagnoses.edit')}
            </Button>
          ) : null}
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={onHistory}
            aria-label={t('diagnoses.historyOf', { name })}
          >
            {t('diagnoses.history')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
