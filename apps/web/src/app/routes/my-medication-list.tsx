import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../components/loading-line.tsx';
import { PortalOnly } from '../../components/portal-only.tsx';
import { MedicationListPrint } from '../../features/clinical-record/index.ts';
import { useMyRecord } from '../../features/my-records/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { describeError } from '../../lib/errors.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/** `/my/records/medications/print`: the patient's own medication list, to print. */
function MyMedicationList() {
  const { t } = useTranslation('clinical-record');
  const record = useMyRecord();
  if (record.isPending) return <LoadingLine label={t('medications.loading')} />;
  if (record.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(record.error)}
      </Alert>
    );
  return <MedicationListPrint patient={record.data} backTo="/my/records" />;
}

function MyMedicationListRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <MyMedicationList />
    </PortalOnly>
  );
}

export { MyMedicationListRoute as Component };
