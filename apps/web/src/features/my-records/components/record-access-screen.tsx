import { Alert, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { RecordAccessKind } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';
import { useRecordAccessLog } from '../api/my-records-api.ts';
import { groupAccessEntries, type AccessGroup } from '../utils/group-access-entries.ts';

/**
 * `/my/record-access`: who of the practice read or changed the patient's record, from the audit trail: when, who
 * (name and role), what. Newest first, a page at a time. Opening it is itself recorded.
 */
export function RecordAccessScreen() {
  const { t } = useTranslation('my-records');
  usePageTitle(t('access.title'));
  const log = useRecordAccessLog();
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  const rows = groupAccessEntries(entries);
  return (
    <Stack gap="md" maw={960} mx="auto" w="100%">
      <Title order={1}>{t('access.title')}</Title>
      <Text>{t('access.intro')}</Text>
      <Paper withBorder p="md" radius="md">
        {log.isPending ? (
          <LoadingLine label={t('loading')} />
        ) : log.isError ? (
          <Alert color="red" variant="light" role="alert" title={t('access.loadFailed')}>
            <Button variant="default" mt="xs" onClick={() => void log.refetch()}>
              {t('tryAgain')}
            </Button>
          </Alert>
        ) : entries.length === 0 ? (
          <Text c="dimmed">{t('access.empty')}</Text>
        ) : (
          <Stack gap="sm">
            {/* No scroll container: three short columns that wrap fit a phone, and a scrolled region would need focus. */}
            <Table striped verticalSpacing="xs" data-testid="record-access-table">
              <Table.Caption>{t('access.caption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('access.when')}</Table.Th>
                  <Table.Th>{t('access.who')}</Table.Th>
                  <Table.Th>{t('access.what')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((group) => (
                  <AccessRow key={group.latest.id} group={group} />
                ))}
              </Table.Tbody>
            </Table>
            {log.hasNextPage ? (
              <Button
                variant="default"
                onClick={() => void log.fetchNextPage()}
                loading={log.isFetchingNextPage}
                style={{ alignSelf: 'center' }}
              >
                {t('access.more')}
              </Button>
            ) : null}
            {log.isFetchNextPageError ? (
              <Text c="red.9" role="alert">
                {t('access.loadFailed')}
              </Text>
            ) : null}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}

function AccessRow({ group }: { group: AccessGroup }) {
  const { t, i18n } = useTranslation('my-records');
  const entry = group.latest;
  const role = entry.actorRole === 'admin' || entry.actorRole === 'provider' ? entry.actorRole : 'other';
  return (
    <Table.Tr>
      <Table.Td>{formatInstantDateTime(entry.timestamp, i18n.language)}</Table.Td>
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {entry.actorName ?? t('access.unknownPerson')}
        </Text>
        <Text size="xs" c="gray.8">
          {t(`access.roles.${role}`)}
        </Text>
      </Table.Td>
      <Table.Td>
        {t(`access.kinds.${entry.kind as RecordAccessKind}`, { defaultValue: t('access.kinds.other') })}
        {group.count > 1 ? (
          <Text size="xs" c="gray.8">
            {t('access.repeated', { count: group.count, since: formatInstantDateTime(group.since, i18n.language) })}
          </Text>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
