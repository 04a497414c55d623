import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MESSAGE_BODY_MAX, MESSAGE_SUBJECT_MAX, type ConversationKind } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import { useMessageRecipients, useStartConversation } from '../api/messages-api.ts';
import { AttachmentList, ComposeNotice, useAttachmentPicker } from './compose-box.tsx';

function recipientValue(patientId: string, kind: ConversationKind) {
  return `${kind}:${patientId}`;
}

/** Start a conversation: the patient with the office or a provider, the practice with a patient. */
export function NewConversationDialog({
  opened,
  onClose,
  onStarted,
  side,
}: {
  opened: boolean;
  onClose: () => void;
  onStarted: (id: string) => void;
  side: 'patient' | 'practice';
}) {
  const { t } = useTranslation('messages');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const recipients = useMessageRecipients(side === 'practice' ? debounced : '', opened);
  const [recipient, setRecipient] = useState<string | null>(null);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const picker = useAttachmentPicker();
  const start = useStartConversation();

  const options = (recipients.data ?? []).map((r) => ({
    value: recipientValue(r.patientId, r.kind),
    label:
      side === 'patient'
        ? r.kind === 'office'
          ? t('officeLong')
          : t('withProvider', { name: r.name ?? '' })
        : (r.name ?? t('office')),
  }));

  function close() {
    setRecipient(null);
    setSubject('');
    setBody('');
    setError(null);
    picker.clear();
    onClose();
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('dialog.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('dialog.cancel') }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const chosen = (recipients.data ?? []).find((r) => recipientValue(r.patientId, r.kind) === recipient);
          if (!chosen) {
            setError(t('dialog.recipientPlaceholder'));
            return;
          }
          setError(null);
          start.mutate(
            { patientId: chosen.patientId, kind: chosen.kind, subject, body, attachmentIds: picker.ids },
            {
              onSuccess: ({ id }) => {
                close();
                onStarted(id);
              },
              onError: (failure) => setError(describeError(failure)),
            },
          );
        }}
      >
        <Stack gap="sm">
          {recipients.isError ? (
            <Alert color="red" variant="light">
              {t('dialog.recipientsFailed')}
            </Alert>
          ) : null}
          <Select
            label={t('dialog.recipient')}
            placeholder={t('dialog.recipientPlaceholder')}
            data={options}
            value={recipient}
            onChange={setRecipient}
            searchable={side === 'practice'}
            searchValue={side === 'practice' ? search : undefined}
            onSearchChange={side === 'practice' ? setSearch : undefined}
            nothingFoundMessage={t('dialog.noRecipients')}
            required
          />
          <TextInput
            label={t('dialog.subject')}
            value={subject}
            onChange={(event) => setSubject(event.currentTarget.value)}
            maxLength={MESSAGE_SUBJECT_MAX}
            required
          />
          <ComposeNotice />
          <Textarea
            label={t('compose.label')}
            placeholder={t('compose.placeholder')}
            value={body}
            onChange={(event) => setBody(event.currentTarget.value)}
            autosize
            minRows={4}
            maxLength={MESSAGE_BODY_MAX}
            required
          />
          <AttachmentList picker={picker} />
          {error ? (
            <Text size="sm" c="red.8" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('dialog.cancel')}
            </Button>
            <Button type="submit" loading={start.isPending} disabled={picker.uploading}>
              {t('dialog.start')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
