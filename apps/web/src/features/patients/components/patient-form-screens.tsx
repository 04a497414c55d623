import { Anchor, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { can, scopeOf, type Role } from '@telehealth/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { AccessDenied } from '../../../components/access-denied.tsx';
import { IconArrowLeft } from '../../../components/icons.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { isNotFoundError } from '../../../lib/form-errors.ts';
import { usePatient } from '../api/get-patient.ts';
import { patientFullName } from '../utils/format.ts';
import { PatientForm } from './patient-form.tsx';
import { PatientListError } from './patient-list-states.tsx';

function ScreenHeader({ title, subtitle }: { title: string; subtitle: string }) {
  const { t } = useTranslation('patients');
  return (
    <Stack gap={6}>
      <Anchor component={Link} to="/patients" size="sm" fw={600} w="fit-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} />
          {t('form.backToPatients')}
        </Group>
      </Anchor>
      <Title order={1} id="patient-form-title">
        {title}
      </Title>
      <Text c="dimmed">{subtitle}</Text>
    </Stack>
  );
}

/** Choosing a patient's primary provider takes the action's `any` scope; with `own` the record is the caller's. */
function canAssignOwner(role: Role, action: 'patient:create' | 'patient:update'): boolean {
  return scopeOf(role, action) === 'any';
}

/** `/patients/new`: New Patient Registration. */
export function PatientCreateScreen({ role }: { role: Role }) {
  const { t } = useTranslation(['patients', 'common']);
  const title = t('form.newTitle');
  usePageTitle(title);
  if (!can(role, 'patient:create')) return <WriteDenied message={t('form.createDenied')} />;
  return (
    <Stack gap="lg">
      <ScreenHeader title={title} subtitle={t('form.newSubtitle')} />
      <PatientForm mode="create" canAssignOwner={canAssignOwner(role, 'patient:create')} />
    </Stack>
  );
}

/** `/patients/:id/edit`: the record's fields, saving only what changed. */
export function PatientEditScreen({ id, role }: { id: string; role: Role }) {
  const { t } = useTranslation(['patients', 'shared']);
  const allowed = can(role, 'patient:update');
  const patient = usePatient(allowed ? id : undefined);
  usePageTitle(t('form.editTitle'));

  if (!allowed) return <WriteDenied message={t('form.editDenied')} />;

  let content: ReactNode;
  if (patient.isPending) {
    content = (
      <Center py="xl" role="status">
        <Group gap="sm">
          <Loader size="sm" aria-hidden />
          <Text c="dimmed">{t('details.loadingRecord')}</Text>
        </Group>
      </Center>
    );
  } else if (patient.isError) {
    content = isNotFoundError(patient.error) ? (
      <PatientNotFound />
    ) : (
      <PatientListError
        title={t('form.loadFailed')}
        message={describeError(patient.error)}
        onRetry={() => {
          void patient.refetch();
        }}
      />
    );
  } else {
    content = (
      <>
        <ScreenHeader
          title={t('form.editTitle')}
          subtitle={t('form.editSubtitle', { name: patientFullName(patient.data) })}
        />
        <PatientForm
          key={patient.data.id}
          mode="edit"
          patient={patient.data}
          canAssignOwner={canAssignOwner(role, 'patient:update')}
        />
      </>
    );
  }
  return <Stack gap="lg">{content}</Stack>;
}

/** A record that does not exist or is not the caller's: the same answer either way. */
function PatientNotFound() {
  const { t } = useTranslation(['patients', 'shared']);
  return (
    <Center py="xl">
      <Paper withBorder p="xl" maw={480} w="100%" shadow="xs" role="alert">
        <Stack align="center" gap="md" ta="center">
          <Title order={1} size="h2">
            {t('shared:patientMessages.notFound')}
          </Title>
          <Text c="dimmed">{t('form.notFoundBody')}</Text>
          <Button component={Link} to="/patients" leftSection={<IconArrowLeft size={18} />}>
            {t('form.backToPatients')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}

function WriteDenied({ message }: { message: string }) {
  const { t } = useTranslation('patients');
  return <AccessDenied message={message} action={{ to: '/dashboard', label: t('list.returnToDashboard') }} />;
}
