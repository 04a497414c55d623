import { Alert, Button, Code, DataList, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MOBILE_BREAKPOINT_PX } from '@telehealth/shared';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { IconPencil } from '../../../components/icons.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { describeError } from '../../../lib/errors.ts';
import { isNotFoundError } from '../../../lib/form-errors.ts';
import { usePatient } from '../api/get-patient.ts';
import type { Patient, PatientSummary } from '../api/patient-schemas.ts';
import { ageOf, formatCalendarDate, formatTimestampDate, patientFullName } from '../utils/format.ts';

export interface PatientDetailsModalProps {
  /** The card that was opened; null keeps the dialog closed. */
  patient: PatientSummary | null;
  onClose: () => void;
  canEdit: boolean;
  /** For administrators: the name of a primary provider (null when unassigned). Absent for providers. */
  providerNameOf?: ((owner: string | null) => string | null) | undefined;
}

/**
 * A patient's record: what the card showed at once, then the full record (read and audited on the server as a
 * single view). Edit Patient and Close.
 */
export function PatientDetailsModal({ patient, onClose, canEdit, providerNameOf }: PatientDetailsModalProps) {
  const { t } = useTranslation(['patients', 'shared']);
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const [lastPatient, setLastPatient] = useState(patient);
  if (patient !== null && patient !== lastPatient) setLastPatient(patient);
  const summary = patient ?? lastPatient;
  const record = usePatient(patient?.id);

  return (
    <Modal
      opened={patient !== null}
      onClose={onClose}
      size="lg"
      fullScreen={isMobile ?? false}
      title={summary ? <ModalTitle summary={summary} /> : null}
      closeButtonProps={{ 'aria-label': t('details.closeDialog') }}
    >
      {summary ? (
        <Stack gap="lg">
          <DetailsBody summary={summary} record={record.data} providerNameOf={providerNameOf} />
          {record.isPending && patient ? (
            <Group gap="xs" role="status">
              <Loader size="xs" aria-hidden />
              <Text size="sm" c="dimmed">
                {t('details.loadingRecord')}
              </Text>
            </Group>
          ) : null}
          {record.isError ? (
            <Alert color="red" variant="light" role="alert" title={t('details.loadFailed')}>
              {isNotFoundError(record.error) ? t('shared:patientMessages.notFound') : describeError(record.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('details.close')}
            </Button>
            <Button component={Link} to={`/patients/${summary.id}`} variant="light">
              {t('details.openChart')}
            </Button>
            {canEdit ? (
              <Button component={Link} to={`/patients/${summary.id}/edit`} leftSection={<IconPencil size={16} />}>
                {t('details.editPatient')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function ModalTitle({ summary }: { summary: PatientSummary }) {
  const { t } = useTranslation('patients');
  return (
    <Group gap="sm" component="span">
      <Text span fw={700} fz="xl">
        {patientFullName(summary)}
      </Text>
      <StatusBadge active={summary.isActive} label={summary.isActive ? t('card.active') : t('card.inactive')} />
    </Group>
  );
}

function DetailsBody({
  summary,
  record,
  providerNameOf,
}: {
  summary: PatientSummary;
  record: Patient | undefined;
  providerNameOf: PatientDetailsModalProps['providerNameOf'];
}) {
  const { t, i18n } = useTranslation('patients');
  const locale = i18n.resolvedLanguage ?? 'en';
  const labels = useTranslation('shared').t;
  // The full record once read; until then (or if it cannot be read) what the list already showed.
  const current: PatientSummary = record ?? summary;
  const age = ageOf(current.dateOfBirth);
  const notProvided = (
    <Text span size="sm" c="dimmed">
      {t('details.notProvided')}
    </Text>
  );
  const value = (text: string | null | undefined) => (text ? text : notProvided);
  const address = record
    ? [
        record.street,
        [record.city, [record.state, record.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', '),
      ]
        .filter(Boolean)
        .join('\n')
    : '';

  return (
    <Stack gap="lg">
      <DetailsSection title={t('details.contact')}>
        <Item label={t('card.email')}>{current.email}</Item>
        <Item label={t('card.phone')}>{value(current.phone)}</Item>
        {record ? <Item label={t('details.address')}>{value(address)}</Item> : null}
      </DetailsSection>

      <DetailsSection title={t('details.record')}>
        <Item label={t('card.dateOfBirth')}>
          {formatCalendarDate(current.dateOfBirth, locale)}
          {age !== null ? ` (${t('card.age', { count: age })})` : ''}
        </Item>
        <Item label={t('details.status')}>{current.isActive ? t('card.active') : t('card.inactive')}</Item>
        <Item label={t('details.patientId')}>
          <Code style={{ wordBreak: 'break-all' }}>{current.id}</Code>
        </Item>
        <Item label={t('details.dateAdded')}>{formatTimestampDate(current.createdAt, locale)}</Item>
        {record ? <Item label={t('details.lastUpdated')}>{formatTimestampDate(record.updatedAt, locale)}</Item> : null}
        {providerNameOf ? (
          <Item label={t('details.primaryProvider')}>{value(providerNameOf(current.owner))}</Item>
        ) : null}
      </DetailsSection>

      {record ? (
        <>
          <DetailsSection title={t('form.sections.emergency')}>
            <Item label={labels('patientLabels.emergencyContactName')}>{value(record.emergencyContactName)}</Item>
            <Item label={labels('patientLabels.emergencyContactPhone')}>{value(record.emergencyContactPhone)}</Item>
          </DetailsSection>
          <DetailsSection title={t('form.sections.insurance')}>
            <Item label={labels('patientLabels.insuranceProvider')}>{value(record.insuranceProvider)}</Item>
            <Item label={labels('patientLabels.insurancePolicyNumber')}>{value(record.insurancePolicyNumber)}</Item>
          </DetailsSection>
          <DetailsSection title={t('form.sections.clinical')}>
            <Item label={labels('patientLabels.reasonForCare')}>{value(record.reasonForCare)}</Item>
            <Item label={labels('patientLabels.allergies')}>{value(record.allergies)}</Item>
            <Item label={labels('patientLabels.currentMedications')}>{value(record.currentMedications)}</Item>
            <Item label={labels('patientLabels.medicalHistory')}>{value(record.medicalHistory)}</Item>
          </DetailsSection>
        </>
      ) : null}
    </Stack>
  );
}

function DetailsSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  // On a phone the labels go above their values: side by side would leave each only half the width.
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <section aria-labelledby={headingId}>
      <Title order={2} size="h5" id={headingId} mb="xs" c="clinical.9">
        {title}
      </Title>
      <DataList size="sm" gap="xs" labelWidth={170} withDivider orientation={narrow ? 'vertical' : 'horizontal'}>
        {children}
      </DataList>
    </section>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel c="dimmed">{label}</DataList.ItemLabel>
      <DataList.ItemValue style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}
