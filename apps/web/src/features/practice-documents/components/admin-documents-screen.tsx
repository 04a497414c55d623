import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  CreatePracticeDocumentInputSchema,
  MOBILE_BREAKPOINT_PX,
  PRACTICE_DOCUMENT_BODY_MAX,
  PRACTICE_DOCUMENT_KINDS,
  PRACTICE_DOCUMENT_TITLE_MAX,
  UpdatePracticeDocumentInputSchema,
  type PracticeDocumentKind,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { ToneBadge } from '../../../components/tone-badge.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';
import {
  useCreatePracticeDocument,
  usePracticeDocuments,
  usePracticeDocumentVersions,
  useUpdatePracticeDocument,
  type PracticeDocument,
} from '../api/practice-documents-api.ts';
import { DocumentBody } from './document-body.tsx';
import { textOf } from './document-texts.ts';

/**
 * `/admin/documents` (decision 066): the practice's documents (consent, privacy notice, policies, its own), each
 * with its current version, whether patients sign it and whether it is in use. Editing a text saves a new version
 * and asks whether patients who signed before must sign again; every version stays readable in the history.
 */
export function AdminDocumentsScreen() {
  const { t, i18n } = useTranslation('practice-documents');
  usePageTitle(t('admin.title'));
  const documents = usePracticeDocuments();
  const [editing, setEditing] = useState<PracticeDocument | 'new' | null>(null);
  const [history, setHistory] = useState<PracticeDocument | null>(null);
  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('admin.title')}</Title>
        <Button onClick={() => setEditing('new')}>{t('admin.new')}</Button>
      </Group>
      <Text c="dimmed">{t('admin.intro')}</Text>
      {documents.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : documents.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(documents.error)}
        </Alert>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {documents.data.map((document) => {
            const title = textOf(document.currentVersion, i18n.language).title;
            return (
              <Paper withBorder p="md" radius="md" key={document.id} component="li" data-testid="practice-document">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Title order={2} size="h4">
                      {title}
                    </Title>
                    <Group gap={6}>
                      <ToneBadge tone="blue">{t(`kind.${document.kind}`)}</ToneBadge>
                      <ToneBadge tone={document.active ? 'green' : 'gray'}>
                        {document.active ? t('admin.active') : t('admin.inactive')}
                      </ToneBadge>
                      {document.requiresSignature ? <ToneBadge tone="violet">{t('admin.mustSign')}</ToneBadge> : null}
                    </Group>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {t('admin.versionLine', {
                      version: document.currentVersion.version,
                      date: formatInstantDateTime(document.currentVersion.createdAt, i18n.language),
                      name: document.currentVersion.createdByName ?? t('admin.theProduct'),
                    })}
                  </Text>
                  <Group gap="sm">
                    <Button size="sm" onClick={() => setEditing(document)} aria-label={`${t('admin.edit')}: ${title}`}>
                      {t('admin.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="default"
                      onClick={() => setHistory(document)}
                      aria-label={`${t('admin.history')}: ${title}`}
                    >
                      {t('admin.history')}
                    </Button>
                  </Group>
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      )}
      {editing ? (
        <DocumentEditor document={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {history ? <VersionHistory document={history} onClose={() => setHistory(null)} /> : null}
    </Stack>
  );
}

/** The texts and settings of a document; for a change of text, whether patients must sign again. */
function DocumentEditor({ document, onClose }: { document: PracticeDocument | null; onClose: () => void }) {
  const { t } = useTranslation('practice-documents');
  const create = useCreatePracticeDocument();
  const update = useUpdatePracticeDocument();
  const current = document?.currentVersion;
  const [kind, setKind] = useState<PracticeDocumentKind>('custom');
  const [titleEn, setTitleEn] = useState(current?.titleEn ?? '');
  const [bodyEn, setBodyEn] = useState(current?.bodyEn ?? '');
  const [titleEs, setTitleEs] = useState(current?.titleEs ?? '');
  const [bodyEs, setBodyEs] = useState(current?.bodyEs ?? '');
  const [requiresSignature, setRequiresSignature] = useState(document?.requiresSignature ?? true);
  const [active, setActive] = useState(document?.active ?? true);
  const [resign, setResign] = useState<'' | 'yes' | 'no'>('');
  const texts = { titleEn, bodyEn, titleEs, bodyEs, requiresSignature, active };
  const createForm = useSchemaForm({
    schema: CreatePracticeDocumentInputSchema,
    read: () => ({ kind, ...texts }),
    mutation: create,
    onDone: onClose,
  });
  const updateForm = useSchemaForm({
    schema: UpdatePracticeDocumentInputSchema,
    read: () => ({ id: document?.id ?? '', ...texts, resignRequired: resign === '' ? null : resign === 'yes' }),
    mutation: update,
    onDone: onClose,
  });
  const form = document ? updateForm : createForm;
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const textChanged =
    !!current &&
    (titleEn !== current.titleEn ||
      bodyEn !== current.bodyEn ||
      titleEs !== (current.titleEs ?? '') ||
      bodyEs !== (current.bodyEs ?? ''));
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      fullScreen={isMobile ?? false}
      title={document ? t('editor.editTitle') : t('editor.newTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={form.submit} noValidate>
        <Stack gap="sm">
          {document ? null : (
            <NativeSelect
              label={t('editor.kind')}
              required
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value as PracticeDocumentKind)}
              data={PRACTICE_DOCUMENT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              error={createForm.fieldError('kind')}
            />
          )}
          <Text size="sm" c="dimmed">
            {t('editor.markdownHint')}
          </Text>
          <TextInput
            label={t('editor.titleEn')}
            required
            maxLength={PRACTICE_DOCUMENT_TITLE_MAX}
            value={titleEn}
            onChange={(e) => setTitleEn(e.currentTarget.value)}
            error={form.fieldError('titleEn')}
          />
          <Textarea
            label={t('editor.bodyEn')}
            required
            autosize
            minRows={6}
            maxRows={18}
            maxLength={PRACTICE_DOCUMENT_BODY_MAX}
            value={bodyEn}
            onChange={(e) => setBodyEn(e.currentTarget.value)}
            error={form.fieldError('bodyEn')}
          />
          <TextInput
            label={t('editor.titleEs')}
            lang="es"
            maxLength={PRACTICE_DOCUMENT_TITLE_MAX}
            value={titleEs}
            onChange={(e) => setTitleEs(e.currentTarget.value)}
            error={form.fieldError('titleEs')}
          />
          <Textarea
            label={t('editor.bodyEs')}
            description={t('editor.bodyEsHint')}
            lang="es"
            autosize
            minRows={6}
            maxRows={18}
            maxLength={PRACTICE_DOCUMENT_BODY_MAX}
            value={bodyEs}
            onChange={(e) => setBodyEs(e.currentTarget.value)}
            error={form.fieldError('bodyEs')}
          />
          <Checkbox
            label={t('editor.requiresSignature')}
            checked={requiresSignature}
            onChange={(e) => setRequiresSignature(e.currentTarget.checked)}
          />
          <Checkbox label={t('editor.active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          {textChanged ? (
            <Radio.Group
              label={t('editor.resignQuestion')}
              description={t('editor.resignHint', { version: (current?.version ?? 0) + 1 })}
              required
              value={resign}
              onChange={(value) => setResign(value)}
              error={updateForm.fieldError('resignRequired')}
            >
              <Stack gap={6} mt={6}>
                <Radio value="yes" label={t('editor.resignYes')} />
                <Radio value="no" label={t('editor.resignNo')} />
              </Stack>
            </Radio.Group>
          ) : null}
          <FormFooter
            failure={form.failure}
            pending={form.pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={document ? t('editor.save') : t('editor.create')}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Every version of a document, newest first; one opened shows its texts. */
function VersionHistory({ document, onClose }: { document: PracticeDocument; onClose: () => void }) {
  const { t, i18n } = useTranslation('practice-documents');
  const versions = usePracticeDocumentVersions(document.id);
  const [shown, setShown] = useState<string | null>(null);
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      fullScreen={isMobile ?? false}
      title={t('history.title', { title: textOf(document.currentVersion, i18n.language).title })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {versions.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : versions.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(versions.error)}
        </Alert>
      ) : (
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {versions.data.map((version) => (
            <Paper withBorder p="sm" radius="md" key={version.id} component="li">
              <Stack gap={4}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text fw={600}>{t('history.version', { version: version.version })}</Text>
                  {version.resignRequired ? <ToneBadge tone="orange">{t('history.resign')}</ToneBadge> : null}
                </Group>
                <Text size="sm" c="dimmed">
                  {t('history.savedBy', {
                    date: formatInstantDateTime(version.createdAt, i18n.language),
                    name: version.createdByName ?? t('admin.theProduct'),
                  })}
                </Text>
                <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                  {t('history.hash')} <Code>{version.textHash}</Code>
                </Text>
                <Group>
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => setShown(shown === version.id ? null : version.id)}
                    aria-expanded={shown === version.id}
                  >
                    {shown === version.id ? t('history.hide') : t('history.show')}
                  </Button>
                </Group>
                {shown === version.id ? (
                  <Paper p="sm" bg="gray.0" radius="sm">
                    <Title order={3} size="h5">
                      {textOf(version, i18n.language).title}
                    </Title>
                    <DocumentBody markdown={textOf(version, i18n.language).body} />
                  </Paper>
                ) : null}
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
