import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { useAcknowledgeTreatmentPlan, useTreatmentPlan } from '../api/treatment-plans-api.ts';
import { TreatmentPlanBadges, TreatmentPlanView } from './treatment-plan-view.tsx';

/**
 * The patient's own treatment plan in the portal: the latest version their provider signed (never a draft), and
 * "I have read this plan", once; after it, when they did.
 */
export function MyTreatmentPlan({ patientId, canAcknowledge }: { patientId: string; canAcknowledge: boolean }) {
  const { t } = useTranslation('clinical-record');
  const plan = useTreatmentPlan(patientId);
  const acknowledge = useAcknowledgeTreatmentPlan();
  const current = plan.data ?? null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-treatment-plan-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="my-treatment-plan-title">
          {t('plans.myTitle')}
        </Title>
        {plan.isPending ? (
          <LoadingLine label={t('plans.loading')} />
        ) : plan.isError ? (
          <Alert color="red" variant="light">
            {t('plans.loadFailed')}
          </Alert>
        ) : !current ? (
          <Text c="dimmed">{t('plans.myEmpty')}</Text>
        ) : (
          <>
            <TreatmentPlanBadges plan={current} />
            <TreatmentPlanView plan={current} readByPatient />
            {acknowledge.error ? (
              <Alert color="red" variant="light" role="alert">
                {describeError(acknowledge.error)}
              </Alert>
            ) : null}
            {canAcknowledge && !current.acknowledgedAt ? (
              <Stack gap={4}>
                <Text size="sm">{t('plans.acknowledgeExplain')}</Text>
                <Button w="fit-content" loading={acknowledge.isPending} onClick={() => acknowledge.mutate(current.id)}>
                  {t('plans.acknowledge')}
                </Button>
              </Stack>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}
