import { Alert, Anchor, Badge, Button, Code, Collapse, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIL_KINDS, type MailKind } from '@telehealth/shared';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfig } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { outboxQueryOptions, type OutboxMail } from '../api/access-requests-api.ts';
import { splitLinks } from '../utils/field-groups.ts';
import { formatDateTime } from '../utils/format.ts';

const KNOWN_STATUSES = ['kept', 'queued', 'sending', 'sent', 'failed'] as const;

/** `/admin/outbox`: the mail the server kept (no SMTP_URL), newest first; only while demo mode is on. */
export function OutboxScreen() {
  const { t } = useTranslation('access-review');
  usePageTitle(t('outbox.title'));
  const { data: config } = useAppConfig();
  const demoMode = config?.demoMode === true;

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{t('outbox.title')}</Title>
        <Text c="dimmed">{t('outbox.intro')}</Text>
      </Stack>
      {config && !demoMode ? (
        <Alert color="gray" variant="light" role="status">
          {t('outbox.demoOnly')}
        </Alert>
      ) : demoMode ? (
        <OutboxList />
      ) : null}
    </Stack>
  );
}

function OutboxList() {
  const { t } = useTranslation('access-review');
  const outbox = useInfiniteQuery(outboxQueryOptions());
  const mails = outbox.data?.pages.flatMap((page) => page.items) ?? [];
  if (outbox.isPending) {
    return <LoadingLine label={t('outbox.loading')} />;
  }
  if (outbox.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(outbox.error)}
      </Alert>
    );
  }
  if (mails.length === 0) {
    return (
      <Paper withBorder p="xl">
        <Text>{t('outbox.empty')}</Text>
      </Paper>
    );
  }
  return (
    <Stack gap="sm">
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {mails.map((mail) => (
          <MailItem key={mail.id} mail={mail} />
        ))}
      </Stack>
      {outbox.hasNextPage ? (
        <Button
          variant="default"
          loading={outbox.isFetchingNextPage}
          onClick={() => {
            void outbox.fetchNextPage();
          }}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('outbox.loadMore')}
        </Button>
      ) : null}
    </Stack>
  );
}

function MailItem({ mail }: { mail: OutboxMail }) {
  const { t, i18n } = useTranslation('access-review');
  const [open, setOpen] = useState(false);
  const bodyId = `mail-body-${mail.id}`;
  const kind = (MAIL_KINDS as readonly string[]).includes(mail.kind)
    ? t(`outbox.kind.${mail.kind as MailKind}`)
    : mail.kind;
  const status = (KNOWN_STATUSES as readonly string[]).includes(mail.status)
    ? t(`outbox.status.${mail.status as (typeof KNOWN_STATUSES)[number]}`)
    : mail.status;
  return (
    <Paper component="li" withBorder p="md" data-testid="outbox-mail">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {mail.subject}
          </Text>
          <Group gap={6}>
            <Badge variant="light" color="blue" radius="sm" style={{ '--badge-color': 'var(--mantine-color-blue-9)' }}>
              {kind}
            </Badge>
            <Badge variant="light" color="gray" radius="sm" style={{ '--badge-color': 'var(--mantine-color-gray-8)' }}>
              {status}
            </Badge>
          </Group>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('outbox.to', { to: mail.to })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('outbox.created', { date: formatDateTime(mail.createdAt, i18n.language) })}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => {
            setOpen((value) => !value);
          }}
        >
          {open ? t('outbox.hideBody') : t('outbox.showBody')}
        </Button>
        <Collapse expanded={open} id={bodyId}>
          {mail.text === null ? (
            <Text size="sm" c="dimmed">
              {t('outbox.noBody')}
            </Text>
          ) : (
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {splitLinks(mail.text).map((part, index) =>
                part.href ? (
                  <Anchor key={index} href={part.href} inherit>
                    {part.text}
                  </Anchor>
                ) : (
                  <span key={index}>{part.text}</span>
                ),
              )}
            </Code>
          )}
        </Collapse>
        {mail.calendarIcs ? <CalendarAttachment mail={mail} ics={mail.calendarIcs} /> : null}
      </Stack>
    </Paper>
  );
}

/** The mail's iCalendar invitation (invite.ics): its method, and a download that opens it in a calendar. */
function CalendarAttachment({ mail, ics }: { mail: OutboxMail; ics: string }) {
  const { t } = useTranslation('access-review');
  const [href] = useState(() => URL.createObjectURL(new Blob([ics], { type: 'text/calendar;charset=utf-8' })));
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm">{t('outbox.attachment', { method: mail.calendarMethod ?? '' })}</Text>
      <Anchor href={href} download={`invite-${mail.id}.ics`} size="sm" data-testid="outbox-ics">
        {t('outbox.downloadInvitation')}
      </Anchor>
    </Group>
  );
}
