import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { CORRECTION_RESPONSE_DAYS, CORRECTION_TEXT_MAX } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { useAnswerCorrection, usePatientCorrections, type Correction } from '../api/my-records-api.ts';
import { CorrectionItem } from './my-details-panel.tsx';

/**
 * The patient chart: the patient's correction requests, and for each one waiting, Accept or Decline with the
 * reason the patient reads (the practice answers within 60 days). Nothing is shown when there are none.
 */
export function RecordCorrectionsPanel({ patientId }: { patientId: string }) {
  const { t } = useTranslation('my-records');
  const corrections = usePatientCorrections(patientId);
  if (corrections.isPending) return <LoadingLine label={t('loading')} />;
  if (corrections.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('correction.loadFailed')}
      </Alert>
    );
  }
  if (corrections.data.length === 0) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="record-corrections-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="record-corrections-title">
          {t('review.title')}
        </Title>
        <Text size="sm">{t('review.intro', { days: CORRECTION_RESPONSE_DAYS })}</Text>
        {corrections.data.map((c) => (
          <Stack key={c.id} gap={4}>
            <CorrectionItem correction={c} />
            {c.status === 'pending' ? <AnswerForm patientId={patientId} correction={c} /> : null}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

function AnswerForm({ patientId, correction }: { patientId: string; correction: Correction }) {
  const { t } = useTranslation('my-records');
  const answer = useAnswerCorrection(patientId);
  const [reason, setReason] = useState('');
  const [missingReason, setMissingReason] = useState(false);
  return (
    <Stack gap="xs">
      <Textarea
        label={t('review.response')}
        description={t('review.responseHint')}
        autosize
        minRows={2}
        maxLength={CORRECTION_TEXT_MAX}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        error={missingReason ? t('review.reasonRequired') : undefined}
      />
      {answer.error ? (
        <Text size="sm" c="red.9" role="alert">
          {describeError(answer.error)}
        </Text>
      ) : null}
      <Group gap="xs">
        <Button
          size="sm"
          loading={answer.isPending && answer.variables.decision === 'accepted'}
          onClick={() => answer.mutate({ id: correction.id, decision: 'accepted', response: reason || null })}
        >
          {t('review.accept')}
        </Button>
        <Button
          size="sm"
          variant="default"
          loading={answer.isPending && answer.variables.decision === 'declined'}
          onClick={() => {
            if (!reason.trim()) {
              setMissingReason(true);
              return;
            }
            setMissingReason(false);
            answer.mutate({ id: correction.id, decision: 'declined', response: reason });
          }}
        >
          {t('review.decline')}
        </Button>
      </Group>
    </Stack>
  );
}
