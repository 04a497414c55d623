import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { NOTE_CARD_TAGS } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import type { Note } from '../api/notes-api.ts';
import { NotePreview } from './note-content.tsx';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';

/** 'Draft', or 'Signed by {name} on {date}': what the card and the note say about the signature. */
export function SignatureLine({ note }: { note: Pick<Note, 'status' | 'signedAt' | 'signedByName'> }) {
  const { t, i18n } = useTranslation('notes');
  if (note.status === 'draft' || !note.signedAt) {
    return (
      // Amber text at 6.5:1 on its ground (Mantine's yellow-9 on the light badge is under 3:1).
      <Badge
        variant="light"
        radius="sm"
        style={{ '--badge-color': '#854d0e', '--badge-bg': 'var(--mantine-color-yellow-0)' }}
      >
        {t('card.draft')}
      </Badge>
    );
  }
  return (
    <Text size="sm" fw={600} c="teal.9">
      {t('card.signedBy', { name: note.signedByName ?? '', date: formatInstantDateTime(note.signedAt, i18n.language) })}
    </Text>
  );
}

/** Text and ground of each priority's badge, at AA contrast or better (Mantine's light badges are not, for orange). */
const PRIORITY_COLORS: Record<string, { text: string; ground: string }> = {
  urgent: { text: '#991b1b', ground: 'var(--mantine-color-red-0)' },
  high: { text: '#9a3412', ground: 'var(--mantine-color-orange-0)' },
  medium: { text: 'var(--mantine-color-gray-8)', ground: 'var(--mantine-color-gray-1)' },
  low: { text: 'var(--mantine-color-gray-8)', ground: 'var(--mantine-color-gray-1)' },
};

export function PriorityBadge({ priority }: { priority: string }) {
  const { t } = useTranslation('notes');
  const colors = PRIORITY_COLORS[priority] ?? PRIORITY_COLORS['medium']!;
  return (
    <Badge variant="light" radius="sm" style={{ '--badge-color': colors.text, '--badge-bg': colors.ground }}>
      {t(`priority.${priority as 'low'}`)}
    </Badge>
  );
}

/** A note's category, priority, whether it is a psychotherapy note, and (in the reader) a version after the first. */
export function NoteBadges({
  note,
  withVersion = false,
}: {
  note: Pick<Note, 'category' | 'priority' | 'isPrivate' | 'version'>;
  withVersion?: boolean;
}) {
  const { t } = useTranslation('notes');
  return (
    <Group gap={6}>
      <Badge variant="outline" color="gray" c="gray.8" radius="sm">
        {t(`category.${note.category as 'general'}`)}
      </Badge>
      <PriorityBadge priority={note.priority} />
      {note.isPrivate ? (
        <Badge variant="filled" color="violet.8" radius="sm">
          {t('card.psychotherapy')}
        </Badge>
      ) : null}
      {withVersion && note.version > 1 ? (
        <Badge variant="light" color="gray" c="gray.8" radius="sm">
          {t('card.version', { version: note.version })}
        </Badge>
      ) : null}
    </Group>
  );
}

export function NoteCard(props: {
  note: Note;
  onOpen: (note: Note) => void;
  onEdit: (note: Note) => void;
  onDelete: (note: Note) => void;
}) {
  const { note } = props;
  const { t, i18n } = useTranslation('notes');
  const tags = note.tags ?? [];
  const shownTags = tags.slice(0, NOTE_CARD_TAGS);
  const moreTags = tags.length - shownTags.length;
  const canChange = note.isAuthor && note.status === 'draft';
  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={`note-${note.id}-title`}>
      <Stack gap="xs" h="100%">
        <Title order={3} size="h4" id={`note-${note.id}-title`} style={{ overflowWrap: 'anywhere' }}>
          {note.title}
        </Title>
        <Group gap="xs">
          <SignatureLine note={note} />
          {note.addendumCount > 0 ? (
            <Text size="sm" c="dimmed">
              {t('card.addenda', { count: note.addendumCount })}
            </Text>
          ) : null}
        </Group>
        <NoteBadges note={note} />
        {note.patientName ? <Text size="sm">{t('card.patient', { name: note.patientName })}</Text> : null}
        {note.content !== null ? (
          <NotePreview content={note.content} />
        ) : (
          <Text size="sm" c="dimmed" fs="italic">
            {note.isPrivate ? t('card.openToRead') : t('card.contentWithheld')}
          </Text>
        )}
        {shownTags.length > 0 ? (
          <Group gap={4}>
            {shownTags.map((tag) => (
              <Badge key={tag} variant="light" radius="xl" tt="none" c="clinical.9">
                {tag}
              </Badge>
            ))}
            {moreTags > 0 ? (
              <Text size="xs" c="dimmed">
                {t('card.moreTags', { count: moreTags })}
              </Text>
            ) : null}
          </Group>
        ) : null}
        <Text size="xs" c="dimmed" mt="auto">
          {t('card.by', { name: note.authorName })} ·{' '}
          {t('card.updated', { date: formatInstantDateTime(note.updatedAt, i18n.language) })}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            onClick={() => props.onOpen(note)}
            aria-label={t('card.openNamed', { title: note.title })}
          >
            {t('card.open')}
          </Button>
          {canChange ? (
            <Button
              size="xs"
              variant="default"
              onClick={() => props.onEdit(note)}
              aria-label={t('card.editNamed', { title: note.title })}
            >
              {t('card.edit')}
            </Button>
          ) : null}
          {canChange && note.version === 1 ? (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              c="red.9"
              onClick={() => props.onDelete(note)}
              aria-label={t('card.deleteNamed', { title: note.title })}
            >
              {t('card.delete')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
