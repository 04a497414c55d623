import { Alert, Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatInstantDate, formatInstantDateTime } from '../../../lib/practice-dates.ts';
import { useSharedNote, useSharedNotes } from '../api/my-records-api.ts';

/**
 * The visit summaries and notes the patient's providers shared with them: a list of titles; opening one reads it
 * (recorded by the server) with its signed addenda. `renderContent` shows a note's formatting (the notes feature's
 * reader, composed by the route).
 */
export function SharedNotesPanel({ renderContent }: { renderContent: (markdown: string) => ReactNode }) {
  const { t, i18n } = useTranslation('my-records');
  const notes = useSharedNotes();
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="shared-notes-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="shared-notes-title">
          {t('shared.title')}
        </Title>
        {notes.isPending ? (
          <LoadingLine label={t('loading')} />
        ) : notes.isError ? (
          <Alert color="red" variant="light" role="alert">
            {t('shared.loadFailed')}
          </Alert>
        ) : notes.data.length === 0 ? (
          <Text c="dimmed">{t('shared.empty')}</Text>
        ) : (
          notes.data.map((note) => (
            <Group key={note.id} justify="space-between" wrap="wrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {note.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('shared.byOn', {
                    name: note.signedByName ?? note.authorName,
                    date: formatInstantDate(note.signedAt ?? note.sharedAt ?? '', i18n.language),
                  })}
                </Text>
              </div>
              <Button
                variant="light"
                onClick={() => setOpenId(note.id)}
                aria-label={t('shared.readNamed', { title: note.title })}
              >
                {t('shared.read')}
              </Button>
            </Group>
          ))
        )}
      </Stack>
      <SharedNoteReader id={openId} onClose={() => setOpenId(null)} renderContent={renderContent} />
    </Paper>
  );
}

function SharedNoteReader(props: {
  id: string | null;
  onClose: () => void;
  renderContent: (markdown: string) => ReactNode;
}) {
  const { t, i18n } = useTranslation('my-records');
  const note = useSharedNote(props.id);
  return (
    <Modal
      opened={props.id !== null}
      onClose={props.onClose}
      title={note.data?.title ?? t('loading')}
      size="lg"
      styles={{ title: { fontWeight: 700, overflowWrap: 'anywhere' } }}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {note.isPending ? (
        <Group justify="center" p="lg">
          <Loader aria-label={t('loading')} />
        </Group>
      ) : note.isError ? (
        <Alert color="red" role="alert">
          {t('shared.readFailed')}
        </Alert>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('shared.signedBy', {
              name: note.data.signedByName ?? note.data.authorName,
              date: note.data.signedAt ? formatInstantDateTime(note.data.signedAt, i18n.language) : '—',
            })}
          </Text>
          <Paper withBorder p="md" radius="md">
            {props.renderContent(note.data.content ?? '')}
          </Paper>
          {note.data.addenda && note.data.addenda.length > 0 ? (
            <Stack gap="xs" component="section" aria-labelledby="shared-addenda-title">
              <Title order={3} size="h5" id="shared-addenda-title">
                {t('shared.addenda')}
              </Title>
              {note.data.addenda.map((a) => (
                <Paper key={a.id} withBorder p="sm" radius="sm">
                  <Text size="xs" c="dimmed">
                    {t('shared.signedBy', {
                      name: a.authorName,
                      date: formatInstantDateTime(a.signedAt, i18n.language),
                    })}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {a.content}
                  </Text>
                </Paper>
              ))}
            </Stack>
          ) : null}
        </Stack>
      )}
    </Modal>
  );
}
