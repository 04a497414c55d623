import { Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { ACCESS_REQUEST_STATUSES, type AccessRequestStatus } from '@telehealth/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import {
  accessRequestCountsQueryOptions,
  accessRequestListQueryOptions,
  type AccessRequestSummary,
} from '../api/access-requests-api.ts';
import { formatDateTime } from '../utils/format.ts';
import { AccessRequestDetailsModal } from './access-request-details-modal.tsx';
import { AccessRequestStatusBadge } from './status-badge.tsx';

/** `/admin/access-requests`: the requests of one status, newest first, with counts; a request opens for review. */
export function AccessRequestsScreen() {
  const { t, i18n } = useTranslation('access-review');
  usePageTitle(t('title'));
  const [status, setStatus] = useState<AccessRequestStatus>('new');
  const [opened, setOpened] = useState<AccessRequestSummary | null>(null);
  const counts = useQuery(accessRequestCountsQueryOptions);
  const list = useInfiniteQuery(accessRequestListQueryOptions(status));
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      <SegmentedControl
        aria-label={t('filterLabel')}
        value={status}
        onChange={(value) => {
          setStatus(value);
        }}
        data={ACCESS_REQUEST_STATUSES.map((value) => ({
          value,
          label: counts.data
            ? t('tab', { label: t(`status.${value}`), count: counts.data[value] })
            : t(`status.${value}`),
        }))}
        fullWidth
        maw={520}
      />
      {list.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : list.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(list.error)}
        </Alert>
      ) : items.length === 0 ? (
        <Paper withBorder p="xl">
          <Text>{t('empty')}</Text>
        </Paper>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((request) => (
            <Paper component="li" withBorder p="md" key={request.id}>
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2} miw={0} style={{ flex: '1 1 240px' }}>
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600} component="span">
                      {request.firstName} {request.lastName}
                    </Text>
                    <Badge
                      variant="outline"
                      color="gray"
                      radius="sm"
                      style={{ '--badge-color': 'var(--mantine-color-gray-8)' }}
                    >
                      {t(`kind.${request.kind}`)}
                    </Badge>
                    <AccessRequestStatusBadge status={request.status} />
                  </Group>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {request.email}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {t('submitted', { date: formatDateTime(request.createdAt, i18n.language) })}
                  </Text>
                </Stack>
                <Button
                  variant="light"
                  onClick={() => {
                    setOpened(request);
                  }}
                  aria-label={`${t('open')}: ${request.firstName} ${request.lastName}`}
                >
                  {t('open')}
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {list.hasNextPage ? (
        <Button
          variant="default"
          loading={list.isFetchingNextPage}
          onClick={() => {
            void list.fetchNextPage();
          }}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('loadMore')}
        </Button>
      ) : null}
      <AccessRequestDetailsModal
        request={opened}
        onClose={() => {
          setOpened(null);
        }}
      />
    </Stack>
  );
}
