import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatClinicDateTime } from '../../../lib/practice-dates.ts';
import {
  attachmentUrl,
  useArchiveConversation,
  useConversation,
  useConversations,
  useMarkConversationRead,
  useMessagesLiveRefresh,
  useSendMessage,
  type Conversation,
} from '../api/messages-api.ts';
import { ComposeBox } from './compose-box.tsx';
import { NewConversationDialog } from './new-conversation-dialog.tsx';

/**
 * `/messages`: the caller's conversations and one thread beside them (on a phone, one after the other: the list,
 * then the thread with a way back). The chosen conversation is in the address (`?c=<id>`), so the browser's back
 * button returns to the list.
 */
export function MessagesScreen({ side, office = false }: { side: 'patient' | 'practice'; office?: boolean }) {
  const { t } = useTranslation('messages');
  const [params, setParams] = useSearchParams();
  const selected = params.get('c');
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const [archived, setArchived] = useState(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [composing, setComposing] = useState(false);
  const select = (id: string | null) => setParams(id ? { c: id } : {});
  useMessagesLiveRefresh();

  const list = (
    <ConversationList archived={archived} search={debounced} selected={selected} onSelect={select} side={side} />
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed" size="sm">
            {side === 'patient' ? t('intro') : office ? t('introOffice') : t('introPractice')}
          </Text>
        </div>
        <Button onClick={() => setComposing(true)}>{t('newConversation')}</Button>
      </Group>
      {!phone || !selected ? (
        <Group gap="sm" wrap="wrap" align="flex-end">
          <TextInput
            label={t('search')}
            placeholder={t('searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            style={{ flex: '1 1 220px' }}
          />
          <SegmentedControl
            aria-label={t('filterLabel')}
            value={archived ? 'archived' : 'inbox'}
            onChange={(value) => setArchived(value === 'archived')}
            data={[
              { value: 'inbox', label: t('inbox') },
              { value: 'archived', label: t('showArchived') },
            ]}
          />
        </Group>
      ) : null}
      {phone ? (
        selected ? (
          <Stack gap="sm">
            <Anchor component="button" type="button" onClick={() => select(null)} size="sm">
              ← {t('back')}
            </Anchor>
            <Thread id={selected} />
          </Stack>
        ) : (
          list
        )
      ) : (
        <Grid>
          <Grid.Col span={5}>{list}</Grid.Col>
          <Grid.Col span={7}>
            {selected ? (
              <Thread id={selected} />
            ) : (
              <Paper withBorder p="lg" radius="md">
                <Text c="dimmed">{t('selectConversation')}</Text>
              </Paper>
            )}
          </Grid.Col>
        </Grid>
      )}
      <NewConversationDialog
        opened={composing}
        onClose={() => setComposing(false)}
        onStarted={(id) => {
          setComposing(false);
          select(id);
        }}
        side={side}
      />
    </Stack>
  );
}

function counterpart(conversation: Conversation, t: (key: 'office') => string): string {
  if (conversation.mySide === 'practice') return conversation.patientName;
  return conversation.kind === 'office' ? t('office') : (conversation.providerName ?? t('office'));
}

function ConversationList({
  archived,
  search,
  selected,
  onSelect,
  side,
}: {
  archived: boolean;
  search: string;
  selected: string | null;
  onSelect: (id: string) => void;
  side: 'patient' | 'practice';
}) {
  const { t } = useTranslation('messages');
  const clinic = useClinicZone();
  const conversations = useConversations({ archived, search });
  if (conversations.isPending) return <LoadingLine label={t('title')} />;
  if (conversations.isError)
    return (
      <Alert color="red" variant="light">
        {t('loadFailed')}
      </Alert>
    );
  const items = conversations.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return <Text c="dimmed">{search ? t('emptySearch') : archived ? t('emptyArchived') : t('empty')}</Text>;
  return (
    <Stack gap="xs">
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('title')}>
        {items.map((c) => (
          <li key={c.id}>
            <UnstyledButton
              onClick={() => onSelect(c.id)}
              aria-current={c.id === selected ? 'true' : undefined}
              style={{ display: 'block', width: '100%' }}
            >
              <Paper
                withBorder
                p="sm"
                radius="md"
                bg={c.id === selected ? 'blue.0' : c.unreadCount > 0 ? 'white' : 'gray.0'}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={c.unreadCount > 0 ? 700 : 500} size="sm" lineClamp={1}>
                    {c.subject}
                  </Text>
                  {c.unreadCount > 0 ? (
                    <Badge color="red.8" size="sm" aria-label={t('unreadCount', { count: c.unreadCount })}>
                      {c.unreadCount}
                    </Badge>
                  ) : null}
                </Group>
                <Text size="xs" c="dimmed">
                  {counterpart(c, t)}
                  {side === 'practice' && c.kind === 'office' ? ` · ${t('office')}` : ''} ·{' '}
                  {formatClinicDateTime(c.lastMessageAt, clinic)}
                </Text>
                {c.lastMessagePreview ? (
                  <Text size="sm" lineClamp={1} c="gray.7">
                    {c.lastMessagePreview}
                  </Text>
                ) : null}
              </Paper>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
      {conversations.hasNextPage ? (
        <Button
          variant="default"
          onClick={() => void conversations.fetchNextPage()}
          loading={conversations.isFetchingNextPage}
        >
          {t('showMore')}
        </Button>
      ) : null}
    </Stack>
  );
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function Thread({ id }: { id: string }) {
  const { t } = useTranslation('messages');
  const clinic = useClinicZone();
  const conversation = useConversation(id);
  const markRead = useMarkConversationRead();
  const archive = useArchiveConversation();
  const send = useSendMessage();
  const [sendError, setSendError] = useState<string | null>(null);
  const unread = conversation.data?.unreadCount ?? 0;
  const { mutate: markReadNow } = markRead;
  // Shown: the other side's messages are read now (and again when a new one arrives while it is open).
  useEffect(() => {
    if (unread > 0) markReadNow(id);
  }, [id, unread, markReadNow]);

  if (conversation.isPending) return <LoadingLine label={t('title')} />;
  if (conversation.isError)
    return (
      <Alert color="red" variant="light">
        {t('threadLoadFailed')}
      </Alert>
    );
  const c = conversation.data;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="thread-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Title order={2} size="h4" id="thread-title">
              {c.subject}
            </Title>
            <Text size="sm" c="dimmed">
              {counterpart(c, t)}
            </Text>
          </div>
          <Button
            variant="default"
            size="xs"
            loading={archive.isPending}
            onClick={() => archive.mutate({ id: c.id, archived: !c.archived })}
          >
            {c.archived ? t('unarchive') : t('archive')}
          </Button>
        </Group>
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {c.messages.map((m) => (
            <li key={m.id} style={{ alignSelf: m.mine ? 'flex-end' : 'flex-start', maxWidth: '90%' }}>
              <Paper p="sm" radius="md" bg={m.mine ? 'blue.0' : 'gray.0'}>
                <Text size="xs" fw={600}>
                  {m.mine ? t('you') : m.senderName} · {formatClinicDateTime(m.createdAt, clinic)}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {m.body}
                </Text>
                {m.attachments.map((a) => (
                  <Anchor key={a.id} href={attachmentUrl(a.id)} size="sm" download style={{ display: 'block' }}>
                    {t('attachment', { name: a.fileName, size: formatSize(a.sizeBytes) })}
                  </Anchor>
                ))}
                {m.mine ? (
                  <Text size="xs" c="dimmed" data-testid="receipt">
                    {m.readAt ? t('read', { time: formatClinicDateTime(m.readAt, clinic) }) : t('sent')}
                  </Text>
                ) : null}
              </Paper>
            </li>
          ))}
        </Stack>
        <ComposeBox
          sending={send.isPending}
          error={sendError}
          onSend={async (body, attachmentIds) => {
            setSendError(null);
            try {
              await send.mutateAsync({ conversationId: c.id, body, attachmentIds });
              return true;
            } catch (error) {
              setSendError(`${t('compose.sendFailed')} ${describeError(error)}`);
              return false;
            }
          }}
        />
      </Stack>
    </Paper>
  );
}
