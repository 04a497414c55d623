import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { FHIR_EXPORT_PATH } from '../api/practice-data-api.ts';

/**
 * On a patient's chart, for administrators: the record as a FHIR Bundle (the patient's right of access, decision
 * 037) and who opened it (the audit trail searched for this patient, decision 034). Each part shows only with the
 * permission its server side checks.
 */
export function PatientRecordAdmin({
  patientId,
  canExport,
  canAudit,
}: {
  patientId: string;
  canExport: boolean;
  canAudit: boolean;
}) {
  const { t } = useTranslation('data');
  if (!canExport && !canAudit) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="record-admin-heading">
      <Stack gap="xs">
        <Title order={2} size="h4" id="record-admin-heading">
          {t('recordAdmin.title')}
        </Title>
        <Text size="sm">{t('recordAdmin.help')}</Text>
        <Group gap="sm" wrap="wrap">
          {canExport ? (
            <Button component="a" href={`${FHIR_EXPORT_PATH}/patients/${patientId}/bundle`} download variant="default">
              {t('recordAdmin.download')}
            </Button>
          ) : null}
          {canAudit ? (
            <Button
              component={Link}
              to={`/admin/security?${new URLSearchParams({ tab: 'audit', patient: patientId }).toString()}`}
              variant="default"
            >
              {t('recordAdmin.audit')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
