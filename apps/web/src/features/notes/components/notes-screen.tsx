import { Alert, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { NOTE_CATEGORIES, NOTE_PRIORITIES } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { coded, errorText } from '../../../lib/error-text.ts';
import { useDeleteNote, useNoteList, useNoteStats, type Note, type NoteListFilter } from '../api/notes-api.ts';
import { NoteCard } from './note-card.tsx';
import { NoteEditor } from './note-editor.tsx';
import { NoteReader } from './note-reader.tsx';

/**
 * `/notes`, and the notes of one patient in the patient chart (`patient`): the specification's list with search,
 * category and priority filters (all on the server, paged), the stats, a card grid, and the editor, reader and
 * delete dialogs. Providers write notes; administrators see that notes exist.
 */
export function NotesScreen({
  canWrite,
  patient = null,
  noteForVisit = null,
  recordAside,
}: {
  canWrite: boolean;
  /** Only this patient's notes, with "New note for this patient" (the chart). */
  patient?: { id: string; name: string } | null;
  /** Opens a new note about this visit of the patient at once (the end of a video visit's "Write the note"). */
  noteForVisit?: string | null;
  /** The patient's record beside a medication-management or evaluation note (see NoteEditor). */
  recordAside?: Parameters<typeof NoteEditor>[0]['recordAside'];
}) {
  const { t } = useTranslation('notes');
  const embedded = patient !== null;
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [category, setCategory] = useState<string | null>(null);
  const [priority, setPriority] = useState<string | null>(null);
  const filter: NoteListFilter = { search: debouncedSearch, category, priority, patientId: patient?.id ?? null };
  const list = useNoteList(filter);
  const [editing, setEditing] = useState<{ note: Note | null; visitId?: string } | null>(
    canWrite && patient && noteForVisit ? { note: null, visitId: noteForVisit } : null,
  );
  const [reading, setReading] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Note | null>(null);
  const notes = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = !!(debouncedSearch.trim() || category || priority);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        {embedded ? <Title order={2}>{t('title')}</Title> : <Title order={1}>{t('title')}</Title>}
        {canWrite ? (
          <Button onClick={() => setEditing({ note: null })}>{embedded ? t('newNoteFor') : t('newNote')}</Button>
        ) : null}
      </Group>

      {embedded ? null : <NoteStats />}

      <Paper withBorder p="sm" radius="md" component="search" aria-label={t('filters.label')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label={t('filters.search')}
            placeholder={t('filters.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            type="search"
          />
          <Select
            label={t('filters.category')}
            placeholder={t('filters.allCategories')}
            data={NOTE_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
            value={category}
            onChange={setCategory}
            clearable
          />
          <Select
            label={t('filters.priority')}
            placeholder={t('filters.allPriorities')}
            data={NOTE_PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))}
            value={priority}
            onChange={setPriority}
            clearable
          />
        </SimpleGrid>
      </Paper>

      {list.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : list.isError ? (
        <Alert color="red" role="alert" variant="light">
          <Stack gap="xs" align="flex-start">
            <Text>{errorText(coded('noteMessages.loadFailed'))}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : notes.length === 0 ? (
        <Text c="dimmed">{filtered ? t('emptyFiltered') : t('empty')}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy={list.isPlaceholderData}>
            {notes.map((note) => (
              <NoteCard
                key={note.id}
                note={note}
                onOpen={(n) => setReading(n.id)}
                // A list leaves a psychotherapy note's content out: it is read (and audited) in the reader first.
                onEdit={(n) => (n.content === null ? setReading(n.id) : setEditing({ note: n }))}
                onDelete={setDeleting}
              />
            ))}
          </SimpleGrid>
          {list.hasNextPage ? (
            <Group justify="center">
              <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {t('loadMore')}
              </Button>
            </Group>
          ) : null}
        </>
      )}

      <NoteEditor
        opened={editing !== null}
        note={editing?.note ?? null}
        patient={patient}
        visitId={editing?.visitId ?? null}
        recordAside={recordAside}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          setReading(saved.id);
        }}
      />
      <NoteReader
        noteId={reading}
        onClose={() => setReading(null)}
        onEdit={(note) => {
          setReading(null);
          setEditing({ note });
        }}
      />
      <DeleteNoteModal note={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function NoteStats() {
  const { t } = useTranslation('notes');
  const stats = useNoteStats();
  const items = [
    ['total', stats.data?.total],
    ['medical', stats.data?.medical],
    ['highPriority', stats.data?.highPriority],
    ['private', stats.data?.private],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" aria-label={t('stats.label')} m={0}>
      {items.map(([key, value]) => (
        <Paper key={key} withBorder p="sm" radius="md">
          <Text component="dt" size="sm" c="dimmed">
            {t(`stats.${key}`)}
          </Text>
          <Text component="dd" m={0} fz="xl" fw={700} data-testid={`note-stat-${key}`}>
            {value ?? '–'}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function DeleteNoteModal({ note, onClose }: { note: Note | null; onClose: () => void }) {
  const { t } = useTranslation('notes');
  const deletion = useDeleteNote();
  const [last, setLast] = useState(note);
  if (note !== null && note !== last) setLast(note);
  const shown = note ?? last;
  return (
    <Modal
      opened={note !== null}
      onClose={() => {
        if (!deletion.isPending) onClose();
      }}
      title={t('delete.title')}
      centered
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': t('delete.cancel') }}
    >
      <Stack gap="md">
        <Text style={{ overflowWrap: 'anywhere' }}>{t('delete.body', { title: shown?.title ?? '' })}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={deletion.isPending} data-autofocus>
            {t('delete.cancel')}
          </Button>
          <Button
            color="red.9"
            loading={deletion.isPending}
            onClick={() => {
              if (!note) return;
              deletion.mutate(note.id, {
                onSuccess: onClose,
                onError: () => {
                  notifications.show({
                    color: 'red',
                    autoClose: false,
                    message: errorText(coded('noteMessages.deleteFailed')),
                  });
                  onClose();
                },
              });
            }}
          >
            {t('delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The page title of `/notes`. */
export function useNotesPageTitle() {
  const { t } = useTranslation('notes');
  usePageTitle(t('title'));
}
