import { Alert, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import {
  COMBINATION_RULE_LABELS,
  DRUG_CLASS_LABELS,
  MEDICATION_WARNINGS_SCOPE,
  sameClassWarningText,
  type MedicationChangeKind,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { usePatientMedications, type Medication, type MedicationWarningView } from '../api/medications-api.ts';
import { labelLanguage } from '../utils/label-language.ts';
import { sigOf } from '../utils/sig.ts';
import { ChangeMedicationModal, CHANGES_FROM } from './change-medication-modal.tsx';
import { MedicationHistory } from './medication-history.tsx';
import { StartMedicationModal } from './start-medication-modal.tsx';

const STATUS_TONE = { active: 'teal', held: 'yellow', stopped: 'gray' } as const;

/**
 * A patient's medications in the chart (decision 062): each with its readable sig, class, schedule, indication,
 * status and history; the class screen's warnings above them (with what the screen is not). The patient's provider
 * starts and changes them (from a note, `noteId` links the change); others read. Stopped ones behind a switch.
 */
export function MedicationsPanel({
  patientId,
  canWrite,
  noteId = null,
}: {
  patientId: string;
  canWrite: boolean;
  noteId?: string | null;
}) {
  const { t } = useTranslation('clinical-record');
  const list = usePatientMedications(patientId);
  const [starting, setStarting] = useState(false);
  const [changing, setChanging] = useState<{ medication: Medication; kind: MedicationChangeKind } | null>(null);
  const [showStopped, setShowStopped] = useState(false);
  const stopped = list.data?.medications.filter((m) => m.status === 'stopped').length ?? 0;
  const shown = list.data?.medications.filter((m) => showStopped || m.status !== 'stopped') ?? [];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="medications-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="medications-title">
            {t('medications.title')}
          </Title>
          {canWrite ? (
            <Button size="sm" onClick={() => setStarting(true)}>
              {t('medications.start')}
            </Button>
          ) : null}
        </Group>
        {list.isPending ? (
          <LoadingLine label={t('medications.loading')} />
        ) : list.isError ? (
          <Alert color="red" variant="light">
            {t('medications.loadFailed')}
          </Alert>
        ) : (
          <>
            <Warnings warnings={list.data.warnings} medications={list.data.medications} />
            {list.data.medications.length === 0 ? <Text c="dimmed">{t('medications.empty')}</Text> : null}
            {stopped > 0 ? (
              <Switch
                label={t('medications.showStopped', { count: stopped })}
                checked={showStopped}
                onChange={(e) => setShowStopped(e.currentTarget.checked)}
              />
            ) : null}
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {shown.map((medication) => (
                <MedicationItem
                  key={medication.id}
                  medication={medication}
                  onChange={canWrite ? (kind) => setChanging({ medication, kind }) : null}
                />
              ))}
            </Stack>
          </>
        )}
      </Stack>
      {starting ? (
        <StartMedicationModal patientId={patientId} noteId={noteId} onClose={() => setStarting(false)} />
      ) : null}
      {changing ? (
        <ChangeMedicationModal
          medication={changing.medication}
          initialKind={changing.kind}
          noteId={noteId}
          onClose={() => setChanging(null)}
        />
      ) : null}
    </Paper>
  );
}

function Warnings({ warnings, medications }: { warnings: MedicationWarningView[]; medications: Medication[] }) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  if (warnings.length === 0) return null;
  const names = (ids: string[]) =>
    ids
      .map((id) => medications.find((m) => m.id === id)?.drugName ?? '')
      .filter(Boolean)
      .join(', ');
  return (
    <Alert color="red" variant="light" title={t('medications.warningsTitle')} role="alert">
      <Stack gap={6}>
        {warnings.map((warning) => (
          <Text size="sm" key={`${warning.kind}-${warning.drugClass ?? warning.rule}`}>
            <strong>{names(warning.medicationIds)}</strong>:{' '}
            {warning.kind === 'same-class' && warning.drugClass
              ? sameClassWarningText(warning.drugClass, language)
              : warning.rule
                ? COMBINATION_RULE_LABELS[warning.rule][language]
                : ''}
          </Text>
        ))}
        <Text size="xs">{MEDICATION_WARNINGS_SCOPE[language]}</Text>
      </Stack>
    </Alert>
  );
}

function MedicationItem({
  medication,
  onChange,
}: {
  medication: Medication;
  onChange: ((kind: MedicationChangeKind) => void) | null;
}) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  const [history, setHistory] = useState(false);
  const title = [medication.drugName, medication.strength].filter(Boolean).join(' ');
  return (
    <Paper component="li" withBorder p="sm" radius="sm" data-testid="medication">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={700}>{title}</Text>
          {medication.brandName ? <Text c="dimmed">({medication.brandName})</Text> : null}
        </Group>
        <Text data-testid="medication-sig">
          {sigOf(medication, language) ||
            (medication.reportedDose ? t('medications.reportedDose', { dose: medication.reportedDose }) : '')}
        </Text>
        <Group gap="xs" wrap="wrap">
          <ToneBadge tone={STATUS_TONE[medication.status]}>{t(`medications.status.${medication.status}`)}</ToneBadge>
          {medication.drugClass ? (
            <ToneBadge tone="violet">{DRUG_CLASS_LABELS[medication.drugClass][language]}</ToneBadge>
          ) : null}
          {medication.controlledSchedule ? (
            <ToneBadge tone="orange">
              {t('medications.schedule', { schedule: medication.controlledSchedule })}
            </ToneBadge>
          ) : null}
          {medication.listed ? null : <ToneBadge tone="gray">{t('medications.notListed')}</ToneBadge>}
          {medication.source === 'patient' ? (
            <ToneBadge tone="blue" data-testid="reported-by-patient">
              {t('reportedByPatient')}
            </ToneBadge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {[
            t('medications.since', { date: formatCalendarDate(medication.startDate, i18n.language) }),
            medication.indicationCode ? t('medications.for', { code: medication.indicationCode }) : null,
            medication.prescriber ? t('medications.prescriber', { name: medication.prescriber }) : null,
            medication.quantity !== null ? t('medications.quantity', { count: medication.quantity }) : null,
            medication.refills !== null ? t('medications.refills', { count: medication.refills }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        <Group gap="xs" wrap="wrap">
          {onChange
            ? CHANGES_FROM[medication.status].map((kind) => (
                <Button
                  key={kind}
                  size="compact-sm"
                  variant="light"
                  onClick={() => onChange(kind)}
                  aria-label={t(`medications.actionsOf.${kind}`, { name: medication.drugName })}
                >
                  {t(`medications.actions.${kind}`)}
                </Button>
              ))
            : null}
          <Button
            size="compact-sm"
            variant="subtle"
            aria-expanded={history}
            onClick={() => setHistory((open) => !open)}
            aria-label={t('medications.historyOf', { name: medication.drugName })}
          >
            {t('medications.history')}
          </Button>
        </Group>
        {history ? <MedicationHistory medication={medication} /> : null}
      </Stack>
    </Paper>
  );
}
