import { Button, CloseButton, FileButton, Group, Paper, Progress, Stack, Text, Textarea } from '@mantine/core';
import {
  AttachmentFileNameSchema,
  CRISIS_LINE,
  detectAttachmentType,
  EMERGENCY_LINE,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_ATTACHMENTS_MAX,
  MESSAGE_BODY_MAX,
  MESSAGE_RESPONSE_BUSINESS_DAYS,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { translateServerError } from '../../../lib/errors.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';
import { firstIssueText } from '../../../lib/error-text.ts';
import { uploadAttachment, UploadError, type MessageAttachment } from '../api/messages-api.ts';

/**
 * The notice every compose box carries: messages are not for emergencies (988, 911), and when the practice
 * answers. Rendered from constants and the page's configuration, never behind a network call.
 */
export function ComposeNotice() {
  const { t } = useTranslation('messages');
  const days = useAppConfigValue()?.messageResponseBusinessDays ?? MESSAGE_RESPONSE_BUSINESS_DAYS;
  return (
    // A standing notice, not an alert: it is there every time, so it is not announced as news.
    <Paper p="xs" radius="sm" bg="orange.0" withBorder role="note">
      <Text size="sm">{t('compose.notEmergency', { crisisLine: CRISIS_LINE, emergencyLine: EMERGENCY_LINE })}</Text>
      <Text size="sm">{t('compose.responseTime', { count: days })}</Text>
    </Paper>
  );
}

interface Pending {
  key: string;
  name: string;
  progress: number;
  attachment: MessageAttachment | null;
}

/**
 * The attachments of one message being written: checked here first (name, size, type) with the server's own
 * rules, then uploaded with progress.
 */
export function useAttachmentPicker() {
  const { t } = useTranslation('messages');
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<string | null>(null);

  async function add(file: File | null) {
    if (!file) return;
    setError(null);
    // The name under the text rule, as the server checks it: a name with a line break or a right-to-left override
    // is refused with the rule's message (and not shown, since it could read as another name).
    const name = AttachmentFileNameSchema.safeParse(file.name);
    if (!name.success) {
      setError(firstIssueText(name.error));
      return;
    }
    if (file.size > MESSAGE_ATTACHMENT_MAX_BYTES) {
      setError(t('compose.tooLarge', { name: file.name }));
      return;
    }
    const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
    if (!detectAttachmentType(head)) {
      setError(t('compose.wrongType', { name: file.name }));
      return;
    }
    const key = crypto.randomUUID();
    setPending((list) => [...list, { key, name: file.name, progress: 0, attachment: null }]);
    try {
      const attachment = await uploadAttachment(file, (progress) =>
        setPending((list) => list.map((p) => (p.key === key ? { ...p, progress } : p))),
      );
      setPending((list) => list.map((p) => (p.key === key ? { ...p, progress: 1, attachment } : p)));
    } catch (failure) {
      setPending((list) => list.filter((p) => p.key !== key));
      const entry = failure instanceof UploadError ? failure.entry : null;
      setError(entry ? translateServerError(entry) : t('compose.uploadFailed', { name: file.name }));
    }
  }

  return {
    pending,
    error,
    uploading: pending.some((p) => !p.attachment),
    ids: pending.flatMap((p) => (p.attachment ? [p.attachment.id] : [])),
    full: pending.length >= MESSAGE_ATTACHMENTS_MAX,
    add: (file: File | null) => void add(file),
    remove: (key: string) => setPending((list) => list.filter((p) => p.key !== key)),
    clear: () => {
      setPending([]);
      setError(null);
    },
  };
}

export type AttachmentPicker = ReturnType<typeof useAttachmentPicker>;

export function AttachmentList({ picker }: { picker: AttachmentPicker }) {
  const { t } = useTranslation('messages');
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <FileButton onChange={picker.add} accept="application/pdf,image/png,image/jpeg" disabled={picker.full}>
          {(props) => (
            <Button {...props} variant="default" size="xs">
              {t('compose.attach')}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {t('compose.attachHint')}
        </Text>
      </Group>
      {picker.pending.map((p) => (
        <Group key={p.key} gap="xs" wrap="nowrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {p.name}
          </Text>
          {p.attachment ? null : (
            <Progress value={p.progress * 100} w={80} aria-label={t('compose.uploading', { name: p.name })} />
          )}
          <CloseButton
            size="sm"
            aria-label={t('compose.remove', { name: p.name })}
            onClick={() => picker.remove(p.key)}
          />
        </Group>
      ))}
      {picker.error ? (
        <Text size="sm" c="red.8" role="alert">
          {picker.error}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The reply box under a thread. */
export function ComposeBox({
  onSend,
  sending,
  error,
}: {
  onSend: (body: string, attachmentIds: string[]) => Promise<boolean>;
  sending: boolean;
  error: string | null;
}) {
  const { t } = useTranslation('messages');
  const [body, setBody] = useState('');
  const picker = useAttachmentPicker();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!body.trim() || picker.uploading) return;
        void onSend(body, picker.ids).then((sent) => {
          if (sent) {
            setBody('');
            picker.clear();
          }
        });
      }}
    >
      <Stack gap="xs">
        <ComposeNotice />
        <Textarea
          label={t('compose.label')}
          placeholder={t('compose.placeholder')}
          value={body}
          onChange={(event) => setBody(event.currentTarget.value)}
          autosize
          minRows={3}
          maxLength={MESSAGE_BODY_MAX}
        />
        <AttachmentList picker={picker} />
        {error ? (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={sending} disabled={!body.trim() || picker.uploading}>
            {t('compose.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
