import {
  Alert,
  Button,
  CloseButton,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { can, PatientFilterSchema, scopeOf, type Role } from '@telehealth/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { IconPlus, IconSearch } from '../../../components/icons.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { usePatientCount, usePatientList } from '../api/list-patients.ts';
import type { PatientListFilter, PatientSummary } from '../api/patient-schemas.ts';
import { useProviderOptions } from '../api/provider-options.ts';
import { patientQueryKeys } from '../api/query-keys.ts';
import { useLoadMoreOnScroll } from '../hooks/use-load-more-on-scroll.ts';
import { DeletePatientModal } from './delete-patient-modal.tsx';
import { PatientCard } from './patient-card.tsx';
import { PatientDetailsModal } from './patient-details-modal.tsx';
import classes from './patient-list-screen.module.css';
import { CARD_GRID_COLS, PatientListEmpty, PatientListError, PatientListSkeleton } from './patient-list-states.tsx';

/** The specification's debounce: a search is sent 300 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_MAX_LENGTH = 100;

type StatusFilter = PatientListFilter['status'];

function isInvalidTokenError(error: unknown): boolean {
  return (
    isGraphQLRequestError(error) &&
    error.errors.some((entry) => entry.extensions?.['messageId'] === 'patientMessages.invalidToken')
  );
}

export interface PatientListScreenProps {
  role: Role;
}

/** `/patients`: search, the count, cards page by page, details, and delete for those who may. */
export function PatientListScreen({ role }: PatientListScreenProps) {
  const { t } = useTranslation(['patients', 'shared']);
  const queryClient = useQueryClient();
  // Every role's reach for update and delete is its reach for read or narrower only by the scope the list
  // already applies (docs/decisions/020), so a card shows the actions the table grants.
  const canCreate = can(role, 'patient:create');
  const canEdit = can(role, 'patient:update');
  const canDelete = can(role, 'patient:delete');
  // Who sees every patient also sees whose patient each one is.
  const seesAll = scopeOf(role, 'patient:read') === 'any';
  usePageTitle(t('list.title'));

  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = useState<StatusFilter>('all');
  const filter = useMemo<PatientListFilter>(() => ({ search: debouncedSearch, status }), [debouncedSearch, status]);
  const searchError = PatientFilterSchema.safeParse({ search: debouncedSearch }).error?.issues[0]?.message;

  const list = usePatientList(filter);
  const count = usePatientCount(filter);
  const providers = useProviderOptions(seesAll);

  const [openPatient, setOpenPatient] = useState<PatientSummary | null>(null);
  const [deletingPatient, setDeletingPatient] = useState<PatientSummary | null>(null);

  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const providerNames = useMemo(
    () =>
      new Map((providers.data ?? []).map((provider) => [provider.owner, `${provider.firstName} ${provider.lastName}`])),
    [providers.data],
  );
  const providerNameOf = useCallback(
    (owner: string | null) => (owner ? (providerNames.get(owner) ?? owner) : null),
    [providerNames],
  );

  const { hasNextPage, isFetching, isFetchingNextPage, isFetchNextPageError, isPlaceholderData, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    // The button and the scroll sentinel may both ask at once: a page already on its way is not asked again.
    if (hasNextPage && !isFetchingNextPage && !isPlaceholderData) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, isPlaceholderData, fetchNextPage]);
  // Scrolling near the end loads the next page by itself; a failed page waits for the person to ask again.
  const sentinelRef = useLoadMoreOnScroll(
    loadMore,
    hasNextPage && !isFetching && !isFetchNextPageError && !isPlaceholderData,
  );

  const filtered = filter.search.trim() !== '' || filter.status !== 'all';
  const searching = search !== debouncedSearch || (isPlaceholderData && isFetching);

  const retry = () => {
    void list.refetch();
    void count.refetch();
  };

  let body: ReactNode;
  if (list.isPending) {
    body = <PatientListSkeleton />;
  } else if (list.isError && !list.data) {
    body = (
      <PatientListError
        title={t('shared:patientMessages.loadFailed')}
        message={describeError(list.error)}
        onRetry={retry}
      />
    );
  } else if (items.length === 0) {
    body = (
      <PatientListEmpty
        filtered={filtered}
        searching={filter.search.trim() !== ''}
        canCreate={canCreate}
        onClearSearch={() => {
          setSearch('');
        }}
      />
    );
  } else {
    body = (
      <Stack gap="lg">
        {list.isRefetchError ? (
          <Alert color="red" variant="light" role="alert">
            <Group justify="space-between" gap="sm">
              <Text size="sm">{t('list.refreshFailed', { message: describeError(list.error) })}</Text>
              <Button size="xs" variant="white" color="red.9" onClick={retry}>
                {t('list.tryAgain')}
              </Button>
            </Group>
          </Alert>
        ) : null}
        <SimpleGrid
          cols={CARD_GRID_COLS}
          spacing="md"
          role="list"
          aria-busy={isPlaceholderData && isFetching}
          style={{ opacity: isPlaceholderData && isFetching ? 0.6 : 1, transition: 'opacity 120ms ease' }}
        >
          {items.map((patient) => (
            <div role="listitem" key={patient.id}>
              <PatientCard
                patient={patient}
                canEdit={canEdit}
                canDelete={canDelete}
                providerName={seesAll ? providerNameOf(patient.owner) : undefined}
                onOpen={setOpenPatient}
                onDelete={setDeletingPatient}
              />
            </div>
          ))}
        </SimpleGrid>
        <ListFooter
          shown={items.length}
          hasNextPage={hasNextPage && !isPlaceholderData}
          loading={isFetchingNextPage}
          error={isFetchNextPageError ? list.error : null}
          onLoadMore={loadMore}
          onStartOver={() => {
            void queryClient.resetQueries({ queryKey: patientQueryKeys.list(filter) });
          }}
          sentinelRef={sentinelRef}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>{t('list.title')}</Title>
          <Text c="dimmed">{seesAll ? t('list.subtitleAdmin') : t('list.subtitleProvider')}</Text>
        </Stack>
        {canCreate ? (
          <Button component={Link} to="/patients/new" leftSection={<IconPlus size={18} />} size="md">
            {t('list.addNew')}
          </Button>
        ) : null}
      </Group>

      <Paper withBorder p="md" shadow="xs">
        <Stack gap="sm">
          <Group gap="md" align="flex-start" wrap="wrap">
            <TextInput
              type="search"
              aria-label={t('list.searchLabel')}
              placeholder={t('list.searchPlaceholder')}
              value={search}
              maxLength={SEARCH_MAX_LENGTH}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setSearch('');
              }}
              leftSection={searching ? <Loader size={16} aria-hidden /> : <IconSearch size={18} />}
              rightSection={
                search ? (
                  <CloseButton
                    size="sm"
                    aria-label={t('list.clearSearch')}
                    onClick={() => {
                      setSearch('');
                    }}
                  />
                ) : null
              }
              error={searchError}
              size="md"
              style={{ flex: '1 1 280px' }}
              className={classes.search}
              autoComplete="off"
            />
            <SegmentedControl
              aria-label={t('list.statusFilterLabel')}
              value={status}
              onChange={(value) => {
                setStatus(value);
              }}
              data={[
                { value: 'all', label: t('list.status.all') },
                { value: 'active', label: t('list.status.active') },
                { value: 'inactive', label: t('list.status.inactive') },
              ]}
              size="md"
            />
          </Group>
          <Text size="sm" c="dimmed" role="status" aria-live="polite" aria-atomic>
            {list.data
              ? t('list.showing', { shown: items.length, total: count.data ?? '…' })
              : list.isPending
                ? t('list.loading')
                : ''}
          </Text>
        </Stack>
      </Paper>

      {body}

      <PatientDetailsModal
        patient={openPatient}
        onClose={() => {
          setOpenPatient(null);
        }}
        canEdit={canEdit}
        providerNameOf={seesAll ? providerNameOf : undefined}
      />
      <DeletePatientModal
        patient={deletingPatient}
        onClose={() => {
          setDeletingPatient(null);
        }}
        onDeleted={(deleted) => {
          setDeletingPatient(null);
          if (openPatient?.id === deleted.id) setOpenPatient(null);
        }}
      />
    </Stack>
  );
}

interface ListFooterProps {
  shown: number;
  hasNextPage: boolean;
  loading: boolean;
  error: unknown;
  onLoadMore: () => void;
  onStartOver: () => void;
  sentinelRef: (element: HTMLElement | null) => void;
}

/** Below the last card: the next page on request (and on scrolling near it), or a note that all are shown. */
function ListFooter({ shown, hasNextPage, loading, error, onLoadMore, onStartOver, sentinelRef }: ListFooterProps) {
  const { t } = useTranslation('patients');
  if (error) {
    const invalidToken = isInvalidTokenError(error);
    return (
      <Alert color="red" variant="light" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('list.loadMoreFailed', { message: describeError(error) })}</Text>
          <Button size="xs" color="red.9" onClick={invalidToken ? onStartOver : onLoadMore}>
            {invalidToken ? t('list.startOver') : t('list.tryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!hasNextPage) {
    return shown > 0 ? (
      <Text ta="center" size="sm" c="dimmed">
        {t('list.allShown', { count: shown })}
      </Text>
    ) : null;
  }
  return (
    <Stack align="center" gap="xs">
      <div ref={sentinelRef} aria-hidden style={{ height: 1, width: '100%' }} />
      <Button
        variant="default"
        onClick={onLoadMore}
        loading={loading}
        loaderProps={{ 'aria-label': t('list.loadingMore') }}
      >
        {t('list.loadMore')}
      </Button>
    </Stack>
  );
}
