import { Alert, Button, Group, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import {
  useSignTreatmentPlan,
  useTreatmentPlan,
  useTreatmentPlanHistory,
  type TreatmentPlanVersion,
} from '../api/treatment-plans-api.ts';
import { TreatmentPlanEditor } from './treatment-plan-editor.tsx';
import { TreatmentPlanBadges, TreatmentPlanView, type LatestScores } from './treatment-plan-view.tsx';

/**
 * The patient's treatment plan in the chart (issue 27, point 3): the current version (a draft shown as one) with
 * each goal's progress from the latest scores; for the patient's provider, Edit (a signed plan's edit starts the
 * next version), Sign (password or code re-entered) and the versions kept. Read only for others and under
 * emergency access.
 */
export function TreatmentPlanPanel({
  patientId,
  canWrite,
  scores = null,
}: {
  patientId: string;
  canWrite: boolean;
  scores?: LatestScores;
}) {
  const { t } = useTranslation('clinical-record');
  const plan = useTreatmentPlan(patientId);
  const [editing, setEditing] = useState(false);
  const [signing, setSigning] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const current = plan.data ?? null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="treatment-plan-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="treatment-plan-title">
            {t('plans.title')}
          </Title>
          {canWrite && !plan.isPending && !plan.isError ? (
            <Group gap="xs">
              {current && !current.signed ? (
                <Button size="sm" onClick={() => setSigning(true)}>
                  {t('plans.sign')}
                </Button>
              ) : null}
              <Button size="sm" variant={current ? 'default' : 'filled'} onClick={() => setEditing(true)}>
                {current ? t('plans.edit') : t('plans.start')}
              </Button>
            </Group>
          ) : null}
        </Group>
        {plan.isPending ? (
          <LoadingLine label={t('plans.loading')} />
        ) : plan.isError ? (
          <Alert color="red" variant="light">
            {t('plans.loadFailed')}
          </Alert>
        ) : !current ? (
          <Text c="dimmed">{t('plans.empty')}</Text>
        ) : (
          <>
            <TreatmentPlanBadges plan={current} />
            <TreatmentPlanView plan={current} scores={scores} />
            {current.version > 1 ? (
              <Button
                variant="subtle"
                size="compact-sm"
                w="fit-content"
                aria-expanded={showHistory}
                onClick={() => setShowHistory((v) => !v)}
              >
                {showHistory ? t('plans.hideHistory') : t('plans.showHistory')}
              </Button>
            ) : null}
            {showHistory ? <PlanHistory plan={current} /> : null}
          </>
        )}
      </Stack>
      {editing ? <TreatmentPlanEditor patientId={patientId} plan={current} onClose={() => setEditing(false)} /> : null}
      {signing && current ? <SignPlanModal plan={current} onClose={() => setSigning(false)} /> : null}
    </Paper>
  );
}

/** The earlier versions, newest first (the current one is shown above). */
function PlanHistory({ plan }: { plan: TreatmentPlanVersion }) {
  const { t } = useTranslation('clinical-record');
  const history = useTreatmentPlanHistory(plan.planId, true);
  if (history.isPending) return <LoadingLine label={t('plans.loadingHistory')} />;
  if (history.isError)
    return (
      <Alert color="red" variant="light">
        {t('plans.loadFailed')}
      </Alert>
    );
  const earlier = history.data.filter((v) => v.id !== plan.id);
  return (
    <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {earlier.map((version) => (
        <Paper key={version.id} component="li" withBorder p="sm" radius="sm" bg="gray.0">
          <Stack gap="xs">
            <TreatmentPlanBadges plan={version} />
            <TreatmentPlanView plan={version} headingOrder={4} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** Signing re-confirms who signs: the password, or a current code of the authenticator app (as for a note). */
function SignPlanModal({ plan, onClose }: { plan: TreatmentPlanVersion; onClose: () => void }) {
  const { t } = useTranslation('clinical-record');
  const sign = useSignTreatmentPlan();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    sign.mutate(
      { id: plan.id, password: password || null, code: password ? null : code || null },
      { onSuccess: onClose },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('plans.signTitle')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('plans.signExplain')}</Text>
          {sign.error ? (
            <Alert color="red" role="alert" variant="light">
              {describeError(sign.error)}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('plans.password')}
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setCode('');
            }}
            autoComplete="current-password"
            data-autofocus
          />
          <TextInput
            label={t('plans.code')}
            value={code}
            onChange={(e) => {
              setCode(e.currentTarget.value);
              setPassword('');
            }}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={10}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={sign.isPending}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={sign.isPending}>
              {t('plans.confirmSign')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
