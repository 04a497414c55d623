import {
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ROLES, USER_SEARCH_MIN_LENGTH, USER_STATUSES, type Role, type UserStatus } from '@telehealth/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { IconChevronDown, IconSearch, IconUserPlus } from '../../../components/icons.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { adminUsersQueryOptions, type AdminUser, type UserFilters } from '../api/admin-users-api.ts';
import { InviteUserModal } from './invite-user-modal.tsx';
import { UserActionModal, type PendingAction, type UserActionKind } from './user-action-modal.tsx';

const NO_FILTERS: UserFilters = { search: '', role: '', status: '', locked: '', twoFactor: '' };

/** The actions the menu offers for an account in its state (the server checks each again). */
function actionsFor(user: AdminUser, isSelf: boolean): UserActionKind[] {
  const actions: UserActionKind[] = [];
  if (!isSelf && (user.role === 'admin' || user.role === 'provider')) actions.push('changeRole');
  if (user.isActive && !user.invitationPending) actions.push('sendPasswordReset');
  if (user.twoFactorEnabled) actions.push('resetTwoFactor');
  if (user.locked) actions.push('unlock');
  if (user.isActive && !isSelf) actions.push('deactivate');
  if (!user.isActive) actions.push('reactivate');
  return actions;
}

/** `/admin/users`: every account, searched and filtered on the server, paged 50 at a time, with its actions. */
export function UsersScreen() {
  const { t, i18n } = useTranslation('admin-users');
  usePageTitle(t('title'));
  const { data: me } = useCurrentUser();
  const [filters, setFilters] = useState<UserFilters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const effective: UserFilters = {
    ...filters,
    search: debouncedSearch.length >= USER_SEARCH_MIN_LENGTH ? debouncedSearch : '',
  };
  const list = useInfiniteQuery(adminUsersQueryOptions(effective));
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [inviting, setInviting] = useState(false);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const setFilter = <K extends keyof UserFilters>(key: K, value: UserFilters[K]) => {
    setFilters((current) => ({ ...current, [key]: value }));
  };
  const any = { value: '', label: t('filters.any') };

  return (
    <Stack gap="lg" maw={1040}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 320px' }}>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed">{t('intro')}</Text>
        </Stack>
        <Button
          leftSection={<IconUserPlus size={18} />}
          onClick={() => {
            setInviting(true);
          }}
        >
          {t('invite')}
        </Button>
      </Group>

      <Paper withBorder p="md" component="section" aria-label={t('filters.label')}>
        <Stack gap="sm">
          <TextInput
            label={t('filters.search')}
            description={t('filters.searchHint')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
            }}
            type="search"
            maxLength={100}
          />
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <Select
              label={t('filters.role')}
              data={[any, ...ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))]}
              value={filters.role}
              onChange={(value) => {
                setFilter('role', (value ?? '') as Role | '');
              }}
              allowDeselect={false}
            />
            <Select
              label={t('filters.status')}
              data={[any, ...USER_STATUSES.map((status) => ({ value: status, label: t(`filters.${status}`) }))]}
              value={filters.status}
              onChange={(value) => {
                setFilter('status', (value ?? '') as UserStatus | '');
              }}
              allowDeselect={false}
            />
            <Select
              label={t('filters.locked')}
              data={[
                any,
                { value: 'yes', label: t('filters.lockedYes') },
                { value: 'no', label: t('filters.lockedNo') },
              ]}
              value={filters.locked}
              onChange={(value) => {
                setFilter('locked', (value ?? '') as UserFilters['locked']);
              }}
              allowDeselect={false}
            />
            <Select
              label={t('filters.twoFactor')}
              data={[
                any,
                { value: 'on', label: t('filters.twoFactorOn') },
                { value: 'off', label: t('filters.twoFactorOff') },
              ]}
              value={filters.twoFactor}
              onChange={(value) => {
                setFilter('twoFactor', (value ?? '') as UserFilters['twoFactor']);
              }}
              allowDeselect={false}
            />
          </SimpleGrid>
          {JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) || search ? (
            <Button
              variant="subtle"
              size="compact-sm"
              style={{ alignSelf: 'flex-start' }}
              onClick={() => {
                setFilters(NO_FILTERS);
                setSearch('');
              }}
            >
              {t('filters.clear')}
            </Button>
          ) : null}
        </Stack>
      </Paper>

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
        <Stack gap="xs">
          <Text size="sm" c="dimmed" role="status">
            {t('shown', { count: items.length })}
          </Text>
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {items.map((user) => {
              const name = `${user.firstName} ${user.lastName}`.trim();
              const isSelf = me?.userId === user.id;
              const actions = actionsFor(user, isSelf);
              return (
                <Paper component="li" withBorder p="md" key={user.id}>
                  <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
                    <Stack gap={4} miw={0} style={{ flex: '1 1 260px' }}>
                      <Group gap="xs" wrap="wrap">
                        <Text fw={600} component="span">
                          {name}
                        </Text>
                        <Badge variant="outline" color="gray" radius="sm" c="gray.8">
                          {t(
                            `roles.${user.role && (ROLES as readonly string[]).includes(user.role) ? (user.role as Role) : 'none'}`,
                          )}
                        </Badge>
                        {isSelf ? (
                          <Badge variant="light" color="blue" radius="sm" c="blue.9">
                            {t('badges.you')}
                          </Badge>
                        ) : null}
                        {!user.isActive ? (
                          <Badge variant="filled" color="gray.8" radius="sm">
                            {t('badges.deactivated')}
                          </Badge>
                        ) : null}
                        {user.locked ? (
                          <Badge variant="light" color="red" radius="sm" c="red.9">
                            {t('badges.locked')}
                          </Badge>
                        ) : null}
                        {user.invitationPending && user.isActive ? (
                          <Badge variant="light" color="yellow" radius="sm" c="yellow.9">
                            {t('badges.invitationPending')}
                          </Badge>
                        ) : null}
                      </Group>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {user.email}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {user.lastSignInAt
                          ? t('lastSignIn', { date: dateFormat.format(new Date(user.lastSignInAt)) })
                          : t('neverSignedIn')}
                        {' · '}
                        {user.twoFactorEnabled ? t('badges.twoFactorOn') : t('badges.twoFactorOff')}
                      </Text>
                    </Stack>
                    {actions.length > 0 ? (
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <Button
                            variant="default"
                            rightSection={<IconChevronDown size={16} />}
                            aria-label={t('actions.menu', { name })}
                          >
                            {t('actions.button')}
                          </Button>
                        </Menu.Target>
                        <Menu.Dropdown>
                          {actions.map((kind) => (
                            <Menu.Item
                              key={kind}
                              color={kind === 'deactivate' ? 'red.9' : undefined}
                              onClick={() => {
                                setPending({ kind, user });
                              }}
                            >
                              {t(`actions.${kind}`)}
                            </Menu.Item>
                          ))}
                        </Menu.Dropdown>
                      </Menu>
                    ) : null}
                  </Group>
                </Paper>
              );
            })}
          </Stack>
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
      <UserActionModal
        pending={pending}
        onClose={() => {
          setPending(null);
        }}
      />
      <InviteUserModal
        opened={inviting}
        onClose={() => {
          setInviting(false);
        }}
      />
    </Stack>
  );
}
