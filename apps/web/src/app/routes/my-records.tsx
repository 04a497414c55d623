import { Alert, Stack, Text, Title } from '@mantine/core';
import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../components/loading-line.tsx';
import { PhoneLinkedText } from '../../components/phone-linked-text.tsx';
import { PortalOnly } from '../../components/portal-only.tsx';
import { usePageTitle } from '../../hooks/use-page-title.ts';
import { MyClinicalRecord, MyTreatmentPlan } from '../../features/clinical-record/index.ts';
import { MeasuresPanel, PendingQuestionnaires } from '../../features/measures/index.ts';
import { MyDetailsPanel, SharedNotesPanel, useMyRecord } from '../../features/my-records/index.ts';
import { NoteContent } from '../../features/notes/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { describeError } from '../../lib/errors.ts';
import { useAppConfigValue } from '../../lib/page-bootstrap.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/**
 * `/my/records`: the patient's own details (read only, with "ask for a correction"), their treatment plan (the
 * latest signed version, to acknowledge), the questionnaires waiting to be filled in, their medications (with the
 * printable list), diagnoses and allergies, their past results as a chart, and the notes their providers shared.
 */
function MyRecords() {
  const { t } = useTranslation('my-records');
  usePageTitle(t('title'));
  const { data: user } = useCurrentUser();
  const record = useMyRecord();
  // "Call the practice" only with a number to call, the number a tel: link (decision 048).
  const phone = useAppConfigValue()?.clinicPhone ?? null;
  return (
    <Stack gap="md" maw={960} mx="auto" w="100%">
      <Title order={1}>{t('title')}</Title>
      {record.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : record.isError ? (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={<PhoneLinkedText text={phone ? t('loadFailedPhone', { phone }) : t('loadFailed')} phone={phone} />}
        >
          <Text size="sm">
            <PhoneLinkedText text={describeError(record.error)} phone={phone} />
          </Text>
        </Alert>
      ) : (
        <>
          <MyDetailsPanel record={record.data} />
          {can(user?.role, 'clinical-record:read') ? (
            <MyTreatmentPlan
              patientId={record.data.id}
              canAcknowledge={can(user?.role, 'treatment-plan:acknowledge')}
            />
          ) : null}
          {can(user?.role, 'measure:respond') ? <PendingQuestionnaires showEmpty /> : null}
          {can(user?.role, 'clinical-record:read') ? (
            <MyClinicalRecord patientId={record.data.id} printPath="/my/records/medications/print" />
          ) : null}
          {can(user?.role, 'measure:read') ? <MeasuresPanel patientId={record.data.id} canSend={false} /> : null}
          <SharedNotesPanel renderContent={(markdown) => <NoteContent content={markdown} />} />
        </>
      )}
    </Stack>
  );
}

function MyRecordsRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <MyRecords />
    </PortalOnly>
  );
}

export { MyRecordsRoute as Component };
