import { Alert, Code, Drawer, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { auditEntryQueryOptions, type AuditEntry } from '../api/audit-trail-api.ts';
import { formatDateTime, LevelBadge, useAuditEventName } from './audit-format.tsx';

/** One audit entry in full (read from the server, which audits the read), with its place in the chain. */
export function AuditEntryDrawer({ entryId, onClose }: { entryId: string | null; onClose: () => void }) {
  const { t } = useTranslation('audit-trail');
  return (
    <Drawer
      opened={entryId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('detail.title')}
      closeButtonProps={{ 'aria-label': t('detail.close') }}
    >
      {entryId ? <EntryDetail id={entryId} /> : null}
    </Drawer>
  );
}

function EntryDetail({ id }: { id: string }) {
  const { t } = useTranslation('audit-trail');
  const entry = useQuery(auditEntryQueryOptions(id));
  if (entry.isPending) {
    return <LoadingLine label={t('detail.loading')} />;
  }
  if (entry.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(entry.error)}
      </Alert>
    );
  }
  return <EntryFields entry={entry.data} />;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function EntryFields({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation('audit-trail');
  const eventName = useAuditEventName();
  const dash = '—';
  const rows: [string, React.ReactNode][] = [
    [t('field.id'), entry.id],
    [t('field.timestamp'), formatDateTime(entry.timestamp, i18n.language)],
    [
      t('field.event'),
      <span key="event">
        {eventName(entry.event) === entry.event ? null : `${eventName(entry.event)} `}
        <Code>{entry.event}</Code>
      </span>,
    ],
    [t('field.level'), <LevelBadge key="level" level={entry.level} />],
    [t('field.source'), entry.source === 'client' ? t('source.clientLong') : t('source.serverLong')],
    [t('field.person'), entry.personName ? `${entry.personName} (${entry.personEmail ?? ''})` : entry.userId],
    [t('field.userId'), entry.userId],
    [t('field.role'), entry.userRole],
    [t('field.session'), entry.sessionId ?? dash],
    [t('field.clientIp'), entry.clientIp ?? dash],
    [t('field.userAgent'), entry.userAgent ?? dash],
    [t('field.url'), entry.url ?? dash],
    [t('field.referrer'), entry.referrer ?? dash],
    [t('field.hipaa'), entry.hipaaRequired ? t('detail.yes') : t('detail.no')],
    [t('field.retention'), t('detail.years', { count: entry.retentionYears })],
    [
      t('field.chain'),
      entry.chainPosition === null
        ? t('detail.unsealed')
        : t('detail.position', { position: entry.chainPosition.toLocaleString(i18n.language) }),
    ],
    [
      t('field.checksum'),
      entry.checksum ? (
        <Code key="checksum" style={{ overflowWrap: 'anywhere' }}>
          {entry.checksum}
        </Code>
      ) : (
        dash
      ),
    ],
    [t('field.sealedAt'), entry.sealedAt ? formatDateTime(entry.sealedAt, i18n.language) : dash],
  ];
  return (
    <Stack gap="md" data-testid="audit-entry-detail">
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={140}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap={4}>
        <Text fw={600} id="audit-entry-details-label">
          {t('field.details')}
        </Text>
        <Code
          block
          aria-labelledby="audit-entry-details-label"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {prettyJson(entry.details)}
        </Code>
      </Stack>
    </Stack>
  );
}
