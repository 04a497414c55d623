import { Alert, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { PRACTICE_SIGNATURE_NAME_MAX, SignPracticeDocumentInputSchema } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import {
  useMyPracticeDocument,
  useMyPracticeDocuments,
  useSignPracticeDocument,
  type PatientPracticeDocument,
} from '../api/practice-documents-api.ts';
import { DocumentBody } from './document-body.tsx';
import { DocumentStatusBadge } from './document-status-badge.tsx';
import { textOf } from './document-texts.ts';
import { SignatureSummary } from './signature-summary.tsx';
import { SignedCopyLink } from './signed-copy-link.tsx';

/**
 * `/my/documents` (decision 066): the practice's documents for the patient, each with where they stand (to sign,
 * signed and when, a newer version to sign, to read); one opened is read in the patient's language (English when
 * the practice wrote no Spanish) and signed by typing their full name and ticking "I agree".
 */
export function MyDocumentsScreen() {
  const { t } = useTranslation('practice-documents');
  usePageTitle(t('mine.title'));
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <Stack gap="md" maw={860} mx="auto" w="100%">
      {openId ? (
        <DocumentReader documentId={openId} onBack={() => setOpenId(null)} />
      ) : (
        <DocumentList onOpen={setOpenId} />
      )}
    </Stack>
  );
}

function DocumentList({ onOpen }: { onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation('practice-documents');
  const documents = useMyPracticeDocuments();
  return (
    <>
      <Title order={1}>{t('mine.title')}</Title>
      <Text c="dimmed">{t('mine.intro')}</Text>
      {documents.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : documents.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(documents.error)}
        </Alert>
      ) : documents.data.length === 0 ? (
        <Text>{t('mine.empty')}</Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {documents.data.map((item) => (
            <Paper withBorder p="md" radius="md" key={item.document.id} component="li">
              <Stack gap={6}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Title order={2} size="h4">
                    {textOf(item.document.currentVersion, i18n.language).title}
                  </Title>
                  <DocumentStatusBadge status={item.status} />
                </Group>
                {item.validSignature ? <SignatureSummary signature={item.validSignature} /> : null}
                <Group gap="md" wrap="wrap">
                  <Button
                    size="sm"
                    variant={needsSignature(item) ? 'filled' : 'default'}
                    onClick={() => onOpen(item.document.id)}
                    aria-label={`${needsSignature(item) ? t('mine.readAndSign') : t('mine.read')}: ${textOf(item.document.currentVersion, i18n.language).title}`}
                  >
                    {needsSignature(item) ? t('mine.readAndSign') : t('mine.read')}
                  </Button>
                  {item.validSignature ? <SignedCopyLink signatureId={item.validSignature.id} /> : null}
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </>
  );
}

export const needsSignature = (item: PatientPracticeDocument) =>
  item.status === 'to-sign' || item.status === 'newer-version';

/**
 * One of the patient's documents, read in their language and signed here when it asks for a signature. Also the
 * waiting room's telehealth consent (decision 069): without `onBack`, with its title one level lower, and told
 * when signed.
 */
export function DocumentReader({
  documentId,
  onBack,
  onSigned,
  titleOrder = 1,
}: {
  documentId: string;
  onBack?: () => void;
  onSigned?: () => void;
  titleOrder?: 1 | 2;
}) {
  const { t, i18n } = useTranslation('practice-documents');
  const document = useMyPracticeDocument(documentId);
  // Once signed here, the reader says so (the list and this document are read again with the signature).
  const [justSigned, setJustSigned] = useState(false);
  if (document.isPending) return <LoadingLine label={t('loading')} />;
  if (document.isError) {
    return (
      <Stack>
        <Alert color="red" variant="light" role="alert">
          {describeError(document.error)}
        </Alert>
        {onBack ? (
          <Group>
            <Button variant="default" onClick={onBack}>
              {t('mine.back')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    );
  }
  const item = document.data;
  const version = item.document.currentVersion;
  const signedNow = justSigned && item.validSignature;
  const text = textOf(version, i18n.language);
  return (
    <Stack gap="md">
      {onBack ? (
        <Group>
          <Button variant="default" size="sm" onClick={onBack}>
            {t('mine.back')}
          </Button>
        </Group>
      ) : null}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={titleOrder} size={titleOrder === 1 ? undefined : 'h3'} lang={text.language}>
          {text.title}
        </Title>
        <DocumentStatusBadge status={item.status} />
      </Group>
      <Text size="sm" c="dimmed">
        {t('mine.version', { version: version.version })}
      </Text>
      {text.language !== (i18n.language.startsWith('es') ? 'es' : 'en') ? (
        <Alert variant="light" color="blue">
          {t('mine.englishOnly')}
        </Alert>
      ) : null}
      <Paper withBorder p="md" radius="md" lang={text.language}>
        <DocumentBody markdown={text.body} />
      </Paper>
      {signedNow ? (
        <Alert color="green" variant="light" role="status" title={t('sign.done')}>
          <Stack gap={6}>
            <SignatureSummary signature={signedNow} />
            <SignedCopyLink signatureId={signedNow.id} />
          </Stack>
        </Alert>
      ) : needsSignature(item) ? (
        <SignForm
          versionId={version.id}
          titleOrder={titleOrder === 1 ? 2 : 3}
          onSigned={() => {
            setJustSigned(true);
            onSigned?.();
          }}
        />
      ) : item.validSignature ? (
        <Paper withBorder p="md" radius="md">
          <Stack gap={6}>
            <SignatureSummary signature={item.validSignature} />
            <SignedCopyLink signatureId={item.validSignature.id} />
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}

function SignForm({ versionId, titleOrder, onSigned }: { versionId: string; titleOrder: 2 | 3; onSigned: () => void }) {
  const { t } = useTranslation('practice-documents');
  const sign = useSignPracticeDocument();
  const [typedName, setTypedName] = useState('');
  const [agreed, setAgreed] = useState(false);
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: SignPracticeDocumentInputSchema,
    read: () => ({ versionId, typedName, agreed }),
    mutation: sign,
    onDone: onSigned,
  });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="sign-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={titleOrder} size="h4" id="sign-title">
            {t('sign.title')}
          </Title>
          <Text size="sm">{t('sign.intro')}</Text>
          <TextInput
            label={t('sign.typedName')}
            description={t('sign.typedNameHint')}
            required
            autoComplete="name"
            maxLength={PRACTICE_SIGNATURE_NAME_MAX}
            value={typedName}
            onChange={(e) => setTypedName(e.currentTarget.value)}
            error={fieldError('typedName')}
          />
          <Checkbox
            label={t('sign.agree')}
            checked={agreed}
            onChange={(e) => setAgreed(e.currentTarget.checked)}
            error={fieldError('agreed')}
          />
          {failure ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(failure)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={pending}>
              {t('sign.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
