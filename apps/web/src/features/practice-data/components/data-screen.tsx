import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatBytes } from '../../../lib/format-bytes.ts';
import {
  backupRunsQueryOptions,
  exportCountsQueryOptions,
  FHIR_EXPORT_PATH,
  FHIR_TYPES,
  useStartBackup,
  type BackupRun,
} from '../api/practice-data-api.ts';

const COUNT_OF = {
  Patient: 'patients',
  Practitioner: 'practitioners',
  Appointment: 'appointments',
  Observation: 'observations',
  DocumentReference: 'documentReferences',
  Condition: 'conditions',
  MedicationStatement: 'medicationStatements',
  AllergyIntolerance: 'allergyIntolerances',
  CarePlan: 'carePlans',
  Goal: 'goals',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/admin/data`: the FHIR exports and the backups (decision 037). */
export function DataScreen() {
  const { t } = useTranslation('data');
  usePageTitle(t('title'));
  return (
    <Stack gap="xl" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      <BackupsSection />
      <ExportSection />
    </Stack>
  );
}

function BackupsSection() {
  const { t } = useTranslation('data');
  const runs = useQuery(backupRunsQueryOptions());
  const start = useStartBackup();
  const running = runs.data?.some((r) => r.status === 'running') ?? false;
  return (
    <Stack gap="sm" component="section" aria-labelledby="backups-heading">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} id="backups-heading">
          {t('backups.title')}
        </Title>
        <Button
          onClick={() => {
            start.mutate();
          }}
          loading={start.isPending}
          disabled={running}
        >
          {t('backups.start')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('backups.help')}
      </Text>
      {start.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(start.error)}
        </Alert>
      ) : null}
      {runs.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : runs.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(runs.error)}
        </Alert>
      ) : runs.data.length === 0 ? (
        <Paper withBorder p="lg">
          <Text>{t('backups.empty')}</Text>
        </Paper>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-live="polite">
          {runs.data.map((run) => (
            <BackupItem key={run.id} run={run} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function BackupItem({ run }: { run: BackupRun }) {
  const { t, i18n } = useTranslation('data');
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(run.startedAt),
  );
  // The light variant: its green and red text are AA on their tint (theme.ts); a filled green badge is not.
  const color = run.status === 'succeeded' ? 'green' : run.status === 'failed' ? 'red' : 'gray';
  const size = run.bytes === null ? null : formatBytes(run.bytes, i18n.language);
  return (
    <Paper component="li" withBorder p="sm" data-testid="backup-run">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{when}</Text>
          <Group gap="xs">
            <Badge variant="light" color="gray">
              {t(`backups.trigger.${run.trigger}`)}
            </Badge>
            <Badge variant="light" color={color} data-testid="backup-status">
              {t(`backups.status.${run.status}`)}
            </Badge>
          </Group>
        </Group>
        {run.status === 'running' ? (
          <Progress value={run.progress} aria-label={t('backups.progress', { progress: run.progress })} />
        ) : null}
        {run.fileName ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('backups.file', { file: run.fileName, size })}
          </Text>
        ) : null}
        {run.status === 'skipped' ? (
          <Text size="sm">{t('backups.skipped')}</Text>
        ) : run.error ? (
          <Text size="sm" c="red.8">
            {t('backups.failed', { error: run.error })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ExportSection() {
  const { t } = useTranslation('data');
  const counts = useQuery(exportCountsQueryOptions());
  const [patientId, setPatientId] = useState('');
  const validId = UUID.test(patientId.trim());
  return (
    <Stack gap="sm" component="section" aria-labelledby="export-heading">
      <Title order={2} id="export-heading">
        {t('export.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('export.help')}
      </Text>
      {counts.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(counts.error)}
        </Alert>
      ) : null}
      <ScrollTable label={t('export.title')} minWidth={320}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('export.type')}</Table.Th>
              <Table.Th>{t('export.count')}</Table.Th>
              <Table.Th>{t('export.download')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {FHIR_TYPES.map((type) => (
              <Table.Tr key={type}>
                <Table.Td>{t(`export.types.${type}`)}</Table.Td>
                <Table.Td>{counts.data ? counts.data[COUNT_OF[type]] : '…'}</Table.Td>
                <Table.Td>
                  <Anchor href={`${FHIR_EXPORT_PATH}/${type}.ndjson`} download>
                    {t('export.ndjson', { type })}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={3}>{t('export.patientTitle')}</Title>
          <Text size="sm">{t('export.patientHelp')}</Text>
          <Group align="end" wrap="wrap">
            <TextInput
              label={t('export.patientId')}
              value={patientId}
              onChange={(event) => {
                setPatientId(event.currentTarget.value);
              }}
              error={patientId.trim() && !validId ? t('export.patientIdInvalid') : undefined}
              style={{ flex: '1 1 260px' }}
            />
            {validId ? (
              <Button component="a" href={`${FHIR_EXPORT_PATH}/patients/${patientId.trim()}/bundle`} download>
                {t('export.patientDownload')}
              </Button>
            ) : (
              // A real disabled button until the id is whole (a link cannot be disabled).
              <Button disabled>{t('export.patientDownload')}</Button>
            )}
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
