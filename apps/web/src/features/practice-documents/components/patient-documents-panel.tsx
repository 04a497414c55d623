import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { RecordPaperSignatureInputSchema } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { describeError } from '../../../lib/errors.ts';
import {
  usePatientPracticeDocuments,
  useRecordPaperSignature,
  type PatientPracticeDocument,
} from '../api/practice-documents-api.ts';
import { DocumentStatusBadge } from './document-status-badge.tsx';
import { textOf } from './document-texts.ts';
import { SignatureSummary } from './signature-summary.tsx';
import { SignedCopyLink } from './signed-copy-link.tsx';

/**
 * The chart's "Documents" panel (decision 066): each of the practice's documents with where the patient stands,
 * their signed copies to download, and, for the patient's provider or an administrator, "Record a paper copy".
 */
export function PatientDocumentsPanel({ patientId, canRecordPaper }: { patientId: string; canRecordPaper: boolean }) {
  const { t, i18n } = useTranslation('practice-documents');
  const documents = usePatientPracticeDocuments(patientId);
  const [recording, setRecording] = useState<PatientPracticeDocument | null>(null);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="patient-documents-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="patient-documents-title">
          {t('chart.title')}
        </Title>
        {documents.isPending ? (
          <LoadingLine label={t('loading')} />
        ) : documents.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(documents.error)}
          </Alert>
        ) : documents.data.length === 0 ? (
          <Text size="sm">{t('chart.empty')}</Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {documents.data.map((item) => {
              const title = textOf(item.document.currentVersion, i18n.language).title;
              const earlier = item.signatures.filter((s) => s.id !== item.validSignature?.id);
              return (
                <li key={item.document.id} data-testid="patient-document">
                  <Stack gap={4} py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Text fw={600}>{title}</Text>
                      <DocumentStatusBadge status={item.status} />
                    </Group>
                    {item.validSignature ? <SignatureSummary signature={item.validSignature} /> : null}
                    <Group gap="md" wrap="wrap">
                      {item.validSignature ? (
                        <SignedCopyLink
                          signatureId={item.validSignature.id}
                          label={t('chart.downloadCopyOf', { title })}
                        />
                      ) : null}
                      {earlier.map((s) => (
                        <SignedCopyLink
                          key={s.id}
                          signatureId={s.id}
                          label={t('chart.downloadEarlier', { version: s.version, title })}
                        />
                      ))}
                      {canRecordPaper && item.document.requiresSignature && item.status !== 'signed' ? (
                        <Button size="xs" variant="default" onClick={() => setRecording(item)}>
                          {t('chart.recordPaper')}
                        </Button>
                      ) : null}
                    </Group>
                  </Stack>
                </li>
              );
            })}
          </Stack>
        )}
      </Stack>
      {recording ? (
        <RecordPaperModal patientId={patientId} item={recording} onClose={() => setRecording(null)} />
      ) : null}
    </Paper>
  );
}

function RecordPaperModal({
  patientId,
  item,
  onClose,
}: {
  patientId: string;
  item: PatientPracticeDocument;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('practice-documents');
  const record = useRecordPaperSignature();
  const [signedOn, setSignedOn] = useState('');
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: RecordPaperSignatureInputSchema,
    read: () => ({ patientId, documentId: item.document.id, signedOn }),
    mutation: record,
    onDone: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={t('chart.recordPaperTitle')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {t('chart.recordPaperIntro', {
              title: textOf(item.document.currentVersion, i18n.language).title,
              version: item.document.currentVersion.version,
            })}
          </Text>
          <TextInput
            type="date"
            label={t('chart.signedOn')}
            required
            data-autofocus
            value={signedOn}
            onChange={(e) => setSignedOn(e.currentTarget.value)}
            error={fieldError('signedOn')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('chart.recordPaperSubmit')}
          />
        </Stack>
      </form>
    </Modal>
  );
}
