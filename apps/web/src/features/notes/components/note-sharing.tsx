import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';
import type { Note } from '../api/notes-api.ts';
import { useNoteSharing, useSetNoteSharing } from '../api/note-sharing-api.ts';

/**
 * In the reader, a provider shares a signed note with its patient (My Records) or stops sharing it. A
 * psychotherapy note says it is never shared; the server refuses it anyway (decision 031).
 */
export function NoteSharingControl({ note }: { note: Note }) {
  const { t, i18n } = useTranslation('notes');
  const { data: user } = useCurrentUser();
  const applies = can(user?.role, 'note:share') && note.patientId !== null && note.content !== null;
  const sharing = useNoteSharing(note.id, applies && !note.isPrivate);
  const setSharing = useSetNoteSharing(note.id);
  if (!applies) return null;
  if (note.isPrivate) {
    return (
      <Text size="sm" c="dimmed">
        {t('sharing.psychotherapy')}
      </Text>
    );
  }
  if (!sharing.data) return null;
  const { shareable, sharedAt, sharedByName } = sharing.data;
  return (
    <Paper withBorder p="sm" radius="md" aria-label={t('sharing.label')} component="section">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" role="status">
          {sharedAt
            ? t('sharing.shared', { name: sharedByName ?? '—', date: formatInstantDateTime(sharedAt, i18n.language) })
            : shareable
              ? t('sharing.notShared')
              : t('sharing.signFirst')}
        </Text>
        {sharedAt ? (
          <Button size="xs" variant="default" loading={setSharing.isPending} onClick={() => setSharing.mutate(false)}>
            {t('sharing.stop')}
          </Button>
        ) : shareable ? (
          <Button size="xs" variant="light" loading={setSharing.isPending} onClick={() => setSharing.mutate(true)}>
            {t('sharing.share')}
          </Button>
        ) : null}
      </Group>
      {setSharing.error ? (
        <Alert color="red" variant="light" role="alert" mt="xs">
          {describeError(setSharing.error)}
        </Alert>
      ) : null}
    </Paper>
  );
}
