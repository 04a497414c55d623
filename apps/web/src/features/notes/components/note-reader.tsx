import {
  Accordion,
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import {
  useAddAddendum,
  useNote,
  useNoteHistory,
  useSignNote,
  useUnlockNote,
  type IdentityProof,
  type Note,
} from '../api/notes-api.ts';
import { NoteBadges, SignatureLine } from './note-card.tsx';
import { NoteContent } from './note-content.tsx';
import { NoteSharingControl } from './note-sharing.tsx';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';

type Mode = 'view' | 'sign' | 'unlock' | 'addendum';

/**
 * One note, read from the server (each reading is audited): its content with its formatting, who signed it and
 * when, its addenda, its earlier signed versions; and, for its author, Sign (password or code re-entered),
 * Unlock (with a reason) and Add Addendum.
 */
export function NoteReader(props: { noteId: string | null; onClose: () => void; onEdit: (note: Note) => void }) {
  const { t } = useTranslation('notes');
  const note = useNote(props.noteId);
  const [mode, setMode] = useState<Mode>('view');
  const close = () => {
    setMode('view');
    props.onClose();
  };
  return (
    <Modal
      opened={props.noteId !== null}
      onClose={close}
      title={note.data?.title ?? t('loading')}
      size="xl"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', overflowWrap: 'anywhere' } }}
      closeButtonProps={{ 'aria-label': t('reader.close') }}
    >
      {note.isPending ? (
        <Group justify="center" p="lg">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : note.isError ? (
        <Alert color="red" role="alert">
          {t('reader.loadFailed')}
        </Alert>
      ) : (
        <NoteBody
          note={note.data}
          mode={mode}
          setMode={setMode}
          onEdit={(n) => {
            setMode('view');
            props.onEdit(n);
          }}
        />
      )}
    </Modal>
  );
}

function NoteBody({
  note,
  mode,
  setMode,
  onEdit,
}: {
  note: Note;
  mode: Mode;
  setMode: (mode: Mode) => void;
  onEdit: (note: Note) => void;
}) {
  const { t, i18n } = useTranslation('notes');
  const canRead = note.content !== null;
  const signed = note.status === 'signed';
  return (
    <Stack gap="sm">
      <Group gap="xs" justify="space-between">
        <SignatureLine note={note} />
        <NoteBadges note={note} withVersion />
      </Group>
      <Text size="sm" c="dimmed">
        {note.patientName ? t('reader.about', { name: note.patientName }) : t('reader.noPatient')} ·{' '}
        {t('card.by', { name: note.authorName })}
      </Text>
      <Paper withBorder p="md" radius="md">
        {canRead ? (
          <NoteContent content={note.content ?? ''} />
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            {t('card.contentWithheld')}
          </Text>
        )}
      </Paper>
      {note.tags && note.tags.length > 0 ? (
        <Group gap={4}>
          {note.tags.map((tag) => (
            <Badge key={tag} variant="light" radius="xl" tt="none" c="clinical.9">
              {tag}
            </Badge>
          ))}
        </Group>
      ) : null}
      {/* Share a signed note with the patient (My Records). */}
      {signed ? <NoteSharingControl note={note} /> : null}

      {canRead && (signed || (note.addenda?.length ?? 0) > 0) ? (
        <section aria-labelledby={`addenda-${note.id}`}>
          <Title order={3} size="h5" id={`addenda-${note.id}`} mb="xs">
            {t('reader.addenda')}
          </Title>
          {(note.addenda ?? []).length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('reader.noAddenda')}
            </Text>
          ) : (
            <Stack gap="xs">
              {(note.addenda ?? []).map((a) => (
                <Paper key={a.id} withBorder p="sm" radius="md" bg="gray.0">
                  <Text size="xs" fw={600} mb={4}>
                    {t('reader.addendumBy', {
                      name: a.authorName,
                      date: formatInstantDateTime(a.signedAt, i18n.language),
                      version: a.noteVersion,
                    })}
                  </Text>
                  <NoteContent content={a.content} />
                </Paper>
              ))}
            </Stack>
          )}
        </section>
      ) : null}

      {canRead && (signed || note.version > 1) ? <History noteId={note.id} /> : null}

      <Divider />
      {mode === 'sign' ? (
        <SignForm note={note} onDone={() => setMode('view')} />
      ) : mode === 'unlock' ? (
        <UnlockForm note={note} onDone={() => setMode('view')} />
      ) : mode === 'addendum' ? (
        <AddendumForm note={note} onDone={() => setMode('view')} />
      ) : (
        <Group gap="sm" justify="flex-end">
          {note.isAuthor && !signed ? (
            <>
              <Button variant="default" onClick={() => onEdit(note)}>
                {t('reader.edit')}
              </Button>
              <Button onClick={() => setMode('sign')}>{t('reader.sign')}</Button>
            </>
          ) : null}
          {note.isAuthor && signed ? (
            <Button variant="default" onClick={() => setMode('unlock')}>
              {t('reader.unlock')}
            </Button>
          ) : null}
          {canRead && signed ? <Button onClick={() => setMode('addendum')}>{t('reader.addAddendum')}</Button> : null}
        </Group>
      )}
    </Stack>
  );
}

function History({ noteId }: { noteId: string }) {
  const { t, i18n } = useTranslation('notes');
  const [open, setOpen] = useState<string | null>(null);
  const history = useNoteHistory(noteId, open !== null);
  return (
    <Accordion variant="contained" value={open} onChange={setOpen}>
      <Accordion.Item value="history">
        <Accordion.Control>{t('reader.history')}</Accordion.Control>
        <Accordion.Panel>
          {history.isPending ? (
            <Loader size="sm" aria-label={t('loading')} />
          ) : history.isError ? (
            <Text c="red.9">{describeError(history.error)}</Text>
          ) : history.data.versions.length === 0 ? (
            <Text size="sm">{t('reader.noHistory')}</Text>
          ) : (
            <Stack gap="sm">
              {history.data.versions.map((v) => (
                <Paper key={v.version} withBorder p="sm" radius="md">
                  <Text size="xs" fw={600}>
                    {t('reader.historyVersion', {
                      version: v.version,
                      name: v.signedByName,
                      date: formatInstantDateTime(v.signedAt, i18n.language),
                    })}
                  </Text>
                  <Text fw={600} size="sm" mt={4}>
                    {v.title}
                  </Text>
                  <NoteContent content={v.content} />
                  {history.data.unlocks
                    .filter((u) => u.version === v.version)
                    .map((u) => (
                      <Text key={u.unlockedAt} size="xs" c="orange.9" mt={4}>
                        {t('reader.historyUnlock', {
                          version: u.version,
                          name: u.unlockedByName,
                          date: formatInstantDateTime(u.unlockedAt, i18n.language),
                          reason: u.reason,
                        })}
                      </Text>
                    ))}
                </Paper>
              ))}
            </Stack>
          )}
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

/** The password, or a code of the authenticator app: what a signature re-confirms. */
function IdentityFields({ proof, setProof }: { proof: IdentityProof; setProof: (proof: IdentityProof) => void }) {
  const { t } = useTranslation('notes');
  return (
    <Group grow align="flex-start" wrap="wrap">
      <PasswordInput
        label={t('reader.password')}
        value={proof.password ?? ''}
        onChange={(e) => setProof({ password: e.currentTarget.value, code: null })}
        autoComplete="current-password"
        miw={200}
      />
      <TextInput
        label={t('reader.code')}
        value={proof.code ?? ''}
        onChange={(e) => setProof({ code: e.currentTarget.value, password: null })}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={10}
        miw={200}
      />
    </Group>
  );
}

function ActionForm(props: {
  title: string;
  explain: string;
  error: Error | null;
  pending: boolean;
  submitLabel: string;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('notes');
  return (
    <form
      noValidate
      onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <Stack gap="sm">
        <Title order={3} size="h5">
          {props.title}
        </Title>
        <Text size="sm">{props.explain}</Text>
        {props.error ? (
          <Alert color="red" role="alert" variant="light">
            {describeError(props.error)}
          </Alert>
        ) : null}
        {props.children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onCancel} disabled={props.pending}>
            {t('editor.cancel')}
          </Button>
          <Button type="submit" loading={props.pending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SignForm({ note, onDone }: { note: Note; onDone: () => void }) {
  const { t } = useTranslation('notes');
  const sign = useSignNote();
  const [proof, setProof] = useState<IdentityProof>({});
  return (
    <ActionForm
      title={t('reader.signTitle')}
      explain={t('reader.signExplain')}
      error={sign.error}
      pending={sign.isPending}
      submitLabel={t('reader.confirmSign')}
      onSubmit={() => sign.mutate({ id: note.id, ...proof }, { onSuccess: onDone })}
      onCancel={onDone}
    >
      <IdentityFields proof={proof} setProof={setProof} />
    </ActionForm>
  );
}

function UnlockForm({ note, onDone }: { note: Note; onDone: () => void }) {
  const { t } = useTranslation('notes');
  const unlock = useUnlockNote();
  const [reason, setReason] = useState('');
  return (
    <ActionForm
      title={t('reader.unlockTitle')}
      explain={t('reader.unlockExplain')}
      error={unlock.error}
      pending={unlock.isPending}
      submitLabel={t('reader.confirmUnlock')}
      onSubmit={() => unlock.mutate({ id: note.id, reason }, { onSuccess: onDone })}
      onCancel={onDone}
    >
      <Textarea
        label={t('reader.reason')}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        required
        autosize
        minRows={2}
      />
    </ActionForm>
  );
}

function AddendumForm({ note, onDone }: { note: Note; onDone: () => void }) {
  const { t } = useTranslation('notes');
  const add = useAddAddendum();
  const [content, setContent] = useState('');
  const [proof, setProof] = useState<IdentityProof>({});
  return (
    <ActionForm
      title={t('reader.addAddendum')}
      explain={t('reader.addendumExplain')}
      error={add.error}
      pending={add.isPending}
      submitLabel={t('reader.confirmAddendum')}
      onSubmit={() => add.mutate({ noteId: note.id, content, ...proof }, { onSuccess: onDone })}
      onCancel={onDone}
    >
      <Textarea
        label={t('reader.addendum')}
        value={content}
        onChange={(e) => setContent(e.currentTarget.value)}
        required
        autosize
        minRows={3}
      />
      <IdentityFields proof={proof} setProof={setProof} />
    </ActionForm>
  );
}
