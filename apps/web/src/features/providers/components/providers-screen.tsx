import {
  Alert,
  Button,
  Card,
  EmptyState,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { can, type Role } from '@telehealth/shared';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { IconAlert, IconUserPlus, IconUsers } from '../../../components/icons.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { useDoctorList, type Doctor } from '../api/providers-api.ts';
import { AddProviderModal } from './add-provider-modal.tsx';
import { ProviderCard } from './provider-card.tsx';

const GRID_COLS = { base: 1, sm: 2, lg: 3 } as const;

/** `/doctors` (Providers): every signed-in person sees the practice's providers; administrators add them. */
export function ProvidersScreen({
  role,
  providerActions,
}: {
  role: Role;
  /** More actions on each provider's card (an administrator's billing identity button), composed by the route. */
  providerActions?: (provider: Doctor) => ReactNode;
}) {
  const { t } = useTranslation('providers');
  usePageTitle(t('title'));
  const list = useDoctorList();
  const [addOpened, addModal] = useDisclosure(false);
  const canAdd = can(role, 'provider:create');
  const providers = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <div role="status">
        <VisuallyHidden>{t('loading')}</VisuallyHidden>
        <SimpleGrid cols={GRID_COLS} spacing="md" aria-hidden>
          {Array.from({ length: 3 }, (_, index) => (
            <Card key={index} shadow="xs">
              <Group gap="md" wrap="nowrap" mb="md">
                <Skeleton circle height={54} />
                <Stack gap={6} style={{ flex: 1 }}>
                  <Skeleton height={16} width="60%" />
                  <Skeleton height={10} width="40%" />
                </Stack>
              </Group>
              <Skeleton height={10} mb={8} />
              <Skeleton height={10} width="70%" />
            </Card>
          ))}
        </SimpleGrid>
      </div>
    );
  } else if (list.isError && !list.data) {
    body = (
      <Paper withBorder p="xl" role="alert">
        <EmptyState
          icon={<IconAlert size={28} />}
          variant="light"
          color="red"
          title={
            <Title order={2} size="h3">
              {t('loadFailed')}
            </Title>
          }
          description={describeError(list.error)}
        >
          <EmptyState.Actions>
            <Button
              onClick={() => {
                void list.refetch();
              }}
            >
              {t('tryAgain')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Paper>
    );
  } else if (providers.length === 0) {
    body = (
      <Paper withBorder p="xl">
        <EmptyState
          icon={<IconUsers size={28} />}
          variant="light"
          title={
            <Title order={2} size="h3">
              {t('emptyTitle')}
            </Title>
          }
          description={t('emptyBody')}
        />
      </Paper>
    );
  } else {
    body = (
      <Stack gap="lg">
        <Text size="sm" c="dimmed" role="status">
          {t('count', { count: providers.length })}
        </Text>
        <SimpleGrid cols={GRID_COLS} spacing="md" role="list">
          {providers.map((provider) => (
            <div role="listitem" key={provider.id}>
              <ProviderCard provider={provider} canManage={canAdd} actions={providerActions?.(provider)} />
            </div>
          ))}
        </SimpleGrid>
        {list.isFetchNextPageError ? (
          <Alert color="red" variant="light" role="alert">
            {t('loadMoreFailed', { message: describeError(list.error) })}
          </Alert>
        ) : null}
        {list.hasNextPage ? (
          <Group justify="center">
            <Button
              variant="default"
              loading={list.isFetchingNextPage}
              onClick={() => {
                if (!list.isFetchingNextPage) void list.fetchNextPage();
              }}
            >
              {t('loadMore')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed">{t('subtitle')}</Text>
        </Stack>
        {canAdd ? (
          <Button leftSection={<IconUserPlus size={18} />} size="md" onClick={addModal.open}>
            {t('add')}
          </Button>
        ) : null}
      </Group>
      {body}
      {canAdd ? <AddProviderModal opened={addOpened} onClose={addModal.close} /> : null}
    </Stack>
  );
}
