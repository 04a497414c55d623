import { Alert, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatCalendarDate, formatInstantDateTime } from '../../../lib/practice-dates.ts';
import { useDiagnosisHistory, type Diagnosis } from '../api/diagnoses-api.ts';

/** Every version of one problem-list entry, newest first: its status, onset, primary flag and comment, by whom. */
export function DiagnosisHistoryModal({ diagnosis, onClose }: { diagnosis: Diagnosis; onClose: () => void }) {
  const { t, i18n } = useTranslation('clinical-record');
  const history = useDiagnosisHistory(diagnosis.id);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('diagnoses.historyTitle', { code: diagnosis.code })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {history.isPending ? (
        <LoadingLine label={t('diagnoses.loading')} />
      ) : history.isError ? (
        <Alert color="red" variant="light">
          {t('diagnoses.loadFailed')}
        </Alert>
      ) : (
        <Stack gap="sm" component="ol" style={{ paddingLeft: 18, margin: 0 }}>
          {history.data.map((revision) => (
            <Stack gap={2} component="li" key={revision.version}>
              <Text size="sm" fw={600}>
                {t('diagnoses.version', {
                  version: revision.version,
                  name: revision.changedByName,
                  date: formatInstantDateTime(revision.changedAt, i18n.language),
                })}
              </Text>
              <Group gap="xs">
                <ToneBadge tone="gray">{t(`diagnoses.status.${revision.status}`)}</ToneBadge>
                {revision.primary ? (
                  <ToneBadge tone="blue" strong>
                    {t('diagnoses.primary')}
                  </ToneBadge>
                ) : null}
              </Group>
              {revision.onsetDate ? (
                <Text size="sm">
                  {t('diagnoses.onset')}: {formatCalendarDate(revision.onsetDate, i18n.language)}
                </Text>
              ) : null}
              {revision.comment ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {revision.comment}
                </Text>
              ) : null}
            </Stack>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
