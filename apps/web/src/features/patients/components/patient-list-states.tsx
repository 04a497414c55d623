import {
  Button,
  Card,
  EmptyState,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { IconAlert, IconPlus, IconSearch, IconUsers } from '../../../components/icons.tsx';

export const CARD_GRID_COLS = { base: 1, sm: 2, lg: 3 } as const;

/** Placeholder cards while the first page loads. */
export function PatientListSkeleton() {
  const { t } = useTranslation('patients');
  return (
    <div role="status" aria-live="polite">
      <VisuallyHidden>{t('list.loading')}</VisuallyHidden>
      <SimpleGrid cols={CARD_GRID_COLS} spacing="md" aria-hidden>
        {Array.from({ length: 6 }, (_, index) => (
          <Card key={index} shadow="xs">
            <Group gap="sm" wrap="nowrap" mb="md">
              <Skeleton circle height={38} />
              <Stack gap={6} style={{ flex: 1 }}>
                <Skeleton height={16} width="60%" />
                <Skeleton height={10} width="35%" />
              </Stack>
            </Group>
            <Stack gap={10}>
              <Skeleton height={10} />
              <Skeleton height={10} width="80%" />
              <Skeleton height={10} width="70%" />
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </div>
  );
}

/** 'Failed to load patients' with Try Again (the specification's error state of the list). */
export function PatientListError({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  const { t } = useTranslation('patients');
  return (
    <Paper withBorder p="xl" role="alert">
      <EmptyState
        icon={<IconAlert size={28} />}
        variant="light"
        color="red"
        title={
          <Title order={2} size="h3">
            {title}
          </Title>
        }
        description={message}
      >
        <EmptyState.Actions>
          <Button onClick={onRetry}>{t('list.tryAgain')}</Button>
        </EmptyState.Actions>
      </EmptyState>
    </Paper>
  );
}

/** 'No patients yet' (with Add First Patient for those who may add) or 'No patients found' for a search. */
export function PatientListEmpty({
  filtered,
  searching,
  canCreate,
  onClearSearch,
}: {
  filtered: boolean;
  searching: boolean;
  canCreate: boolean;
  onClearSearch: () => void;
}) {
  const { t } = useTranslation('patients');
  if (filtered) {
    return (
      <Paper withBorder p="xl">
        <EmptyState
          icon={<IconSearch size={28} />}
          variant="light"
          title={
            <Title order={2} size="h3">
              {t('list.noResultsTitle')}
            </Title>
          }
          description={searching ? t('list.noResultsBody') : t('list.noResultsFilteredBody')}
        >
          {searching ? (
            <EmptyState.Actions>
              <Button variant="default" onClick={onClearSearch}>
                {t('list.clearSearch')}
              </Button>
            </EmptyState.Actions>
          ) : null}
        </EmptyState>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="xl">
      <EmptyState
        icon={<IconUsers size={28} />}
        variant="light"
        title={
          <Title order={2} size="h3">
            {t('list.emptyTitle')}
          </Title>
        }
        description={canCreate ? t('list.emptyBody') : t('list.emptyBodyReadOnly')}
      >
        {canCreate ? (
          <EmptyState.Actions>
            <Button component={Link} to="/patients/new" leftSection={<IconPlus size={18} />}>
              {t('list.addFirst')}
            </Button>
          </EmptyState.Actions>
        ) : null}
      </EmptyState>
    </Paper>
  );
}
