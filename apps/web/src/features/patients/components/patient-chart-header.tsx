import { Alert, Button, DataList, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { isNotFoundError } from '../../../lib/form-errors.ts';
import { usePatientChart } from '../api/patient-chart.ts';
import type { Patient } from '../api/patient-schemas.ts';
import { ageOf, formatCalendarDate, patientFullName } from '../utils/format.ts';

/**
 * The top of the patient chart `/patients/{id}`: who the patient is (demographics and the clinical text of the
 * record). `children` receives the patient and renders the chart's other sections (appointments, alerts, notes,
 * measures), composed by the route.
 */
export function PatientChart({
  id,
  children,
  whenNotFound,
  badges,
}: {
  id: string;
  /** Beside the name: badges of other features (the intake and consent before the first visit). */
  badges?: ReactNode;
  children: (patient: Patient) => ReactNode;
  /** Shown under the "not found" answer (the route offers emergency access there to providers). */
  whenNotFound?: ReactNode;
}) {
  const { t, i18n } = useTranslation(['patients', 'shared']);
  const chart = usePatientChart(id);
  usePageTitle(chart.data ? patientFullName(chart.data) : t('chart.title'));
  if (chart.isPending) return <LoadingLine label={t('details.loadingRecord')} />;
  if (chart.isError) {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert">
          {describeError(chart.error)}
        </Alert>
        {isNotFoundError(chart.error) ? whenNotFound : null}
        <Button component={Link} to="/patients" variant="default" w="fit-content">
          {t('chart.back')}
        </Button>
      </Stack>
    );
  }
  const patient = chart.data;
  const age = ageOf(patient.dateOfBirth);
  const clinical = (['reasonForCare', 'allergies', 'currentMedications', 'medicalHistory'] as const).filter(
    (field) => patient[field],
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('chart.title')}
          </Text>
          <Group gap="sm">
            <Title order={1}>{patientFullName(patient)}</Title>
            <StatusBadge active={patient.isActive} label={patient.isActive ? t('card.active') : t('card.inactive')} />
            {badges}
          </Group>
        </Stack>
        <Button component={Link} to="/patients" variant="default">
          {t('chart.back')}
        </Button>
      </Group>
      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <DataList size="sm" gap="xs" orientation="vertical">
            <DataList.Item>
              <DataList.ItemLabel>{t('card.dateOfBirth')}</DataList.ItemLabel>
              <DataList.ItemValue>
                {formatCalendarDate(patient.dateOfBirth, i18n.language)}
                {age !== null ? ` (${t('card.age', { count: age })})` : ''}
              </DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>{t('card.email')}</DataList.ItemLabel>
              <DataList.ItemValue style={{ overflowWrap: 'anywhere' }}>{patient.email}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>{t('card.phone')}</DataList.ItemLabel>
              <DataList.ItemValue>{patient.phone ?? t('details.notProvided')}</DataList.ItemValue>
            </DataList.Item>
          </DataList>
          {clinical.length > 0 ? (
            <DataList size="sm" gap="xs" orientation="vertical">
              {clinical.map((field) => (
                <DataList.Item key={field}>
                  <DataList.ItemLabel>{t(`shared:patientLabels.${field}`)}</DataList.ItemLabel>
                  <DataList.ItemValue style={{ whiteSpace: 'pre-wrap' }}>{patient[field]}</DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList>
          ) : null}
        </SimpleGrid>
      </Paper>
      {children(patient)}
    </Stack>
  );
}
