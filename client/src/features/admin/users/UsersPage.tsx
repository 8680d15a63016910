import { ActionIcon, Avatar, Badge, Box, Button, Card, Group, Loader, Select, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import {
  IconCheck,
  IconFilterOff,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconRefresh,
  IconTrash,
  IconUsers,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import {
  getListUsersQueryKey,
  useDeleteUser,
  useListUsers,
  useToggleUserStatus,
  useVerifyUserEmail,
} from '../../../api/generated/endpoints/users/users';
import type { AdminUserDto, ListUsersSort } from '../../../api/generated/model';
import { SuccessAlert } from '../../../components/SuccessAlert';
import { SearchField } from '../../../components/SearchField';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PagerBar } from '../../../components/PagerBar';
import { pageRange, nextSort } from '../../../components/pagination';
import { SortableTh } from '../../../components/SortableTh';
import { useFlash } from '../../../components/use-flash';
import type { MessageId } from '../../../i18n/message-id';
import {
  DEFAULT_PREFERENCES,
  hasFilters,
  loadPreferences,
  PAGE_SIZES,
  savePreferences,
  toListParams,
  UsersPreferences,
} from './preferences';
import { UserFormModal } from './UserFormModal';

/** Success banners clear after 3 s (admin spec section 9). */
const SUCCESS_MS = 3000;

const COLUMNS: Array<{ sort: ListUsersSort; label: MessageId }> = [
  { sort: 'name', label: 'users.columns.user' },
  { sort: 'role', label: 'users.columns.role' },
  { sort: 'status', label: 'users.columns.status' },
  { sort: 'is_verified', label: 'users.columns.email' },
  { sort: 'last_login', label: 'users.columns.lastLogin' },
  { sort: 'created_at', label: 'users.columns.created' },
];

const ROLE_COLORS: Record<string, string> = { admin: 'violet', moderator: 'blue', client: 'gray' };

const initials = (user: AdminUserDto) => (`${user.first_name[0] ?? ''}${user.last_name[0] ?? ''}` || user.email[0]).toUpperCase();

export default function UsersPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [prefs, setPrefs] = useState<UsersPreferences>(loadPreferences);
  const [debouncedSearch] = useDebouncedValue(prefs.search, 300);
  const [success, showSuccess] = useFlash(SUCCESS_MS);
  const [actionError, setActionError] = useState<string | null>(null);
  const [editing, setEditing] = useState<AdminUserDto | 'new' | null>(null);

  useEffect(() => savePreferences(prefs), [prefs]);
  const update = (change: Partial<UsersPreferences>) => setPrefs((current) => ({ ...current, page: 1, ...change }));

  const list = useListUsers(toListParams(prefs, debouncedSearch), { query: { placeholderData: keepPreviousData } });
  const meta = list.data?.meta;
  const users = list.data?.data ?? [];

  // A page that no longer exists (after a delete or a narrower filter) moves to the last one.
  useEffect(() => {
    if (meta && prefs.page > meta.pages) setPrefs((current) => ({ ...current, page: meta.pages }));
  }, [meta, prefs.page]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: getListUsersQueryKey().slice(0, 1) });
  const afterAction = (message: string) => {
    setActionError(null);
    showSuccess(message);
    refresh();
  };
  const failed = (id: MessageId) => (error: Error) => {
    showSuccess(null);
    setActionError(intl.formatMessage({ id }, { message: error.message }));
  };

  const verify = useVerifyUserEmail({
    mutation: {
      onSuccess: () => afterAction(intl.formatMessage({ id: 'users.messages.verified' })),
      onError: failed('users.errors.verify'),
    },
  });
  const toggle = useToggleUserStatus({
    mutation: {
      onSuccess: (response) =>
        afterAction(intl.formatMessage({ id: response.data.is_active ? 'users.messages.activated' : 'users.messages.deactivated' })),
      onError: failed('users.errors.status'),
    },
  });
  const remove = useDeleteUser({
    mutation: {
      onSuccess: () => afterAction(intl.formatMessage({ id: 'users.messages.deleted' })),
      onError: failed('users.errors.delete'),
    },
  });

  const confirmDelete = (user: AdminUserDto) =>
    modals.openConfirmModal({
      title: intl.formatMessage({ id: 'users.delete.title' }),
      children: <Text fz="sm">{intl.formatMessage({ id: 'users.delete.confirm' }, { email: user.email })}</Text>,
      labels: { confirm: intl.formatMessage({ id: 'common.delete' }), cancel: intl.formatMessage({ id: 'common.cancel' }) },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: user.id }),
    });

  const sortBy = (sort: ListUsersSort) => update(nextSort(prefs, sort));

  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? prefs.limit, meta?.total ?? 0);
  const filtered = hasFilters(prefs);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>
            <FormattedMessage id="users.title" />
          </Title>
          <Text c="dimmed" fz="sm" data-testid="users-count">
            <FormattedMessage id="users.count" values={{ count: meta?.overall_total ?? 0 }} />
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={list.isFetching && !list.isLoading}>
            <FormattedMessage id="common.refresh" />
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            <FormattedMessage id="users.add" />
          </Button>
        </Group>
      </Group>

      {success && <SuccessAlert onClose={() => showSuccess(null)}>{success}</SuccessAlert>}
      {actionError && <ErrorAlert onClose={() => setActionError(null)}>{actionError}</ErrorAlert>}
      {list.error && (
        <ErrorAlert onRetry={() => list.refetch()}>
          {intl.formatMessage({ id: 'users.errors.load' }, { message: list.error.message })}
        </ErrorAlert>
      )}

      <Card withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchField
            label={intl.formatMessage({ id: 'users.filters.searchLabel' })}
            placeholder={intl.formatMessage({ id: 'users.filters.search' })}
            value={prefs.search}
            onChange={(event) => update({ search: event.currentTarget.value })}
          />
          <Select
            w={150}
            label={intl.formatMessage({ id: 'users.filters.status' })}
            data={[
              { value: 'all', label: intl.formatMessage({ id: 'users.filters.allStatuses' }) },
              { value: 'active', label: intl.formatMessage({ id: 'users.status.active' }) },
              { value: 'inactive', label: intl.formatMessage({ id: 'users.status.inactive' }) },
            ]}
            value={prefs.status}
            allowDeselect={false}
            onChange={(value) => update({ status: (value ?? 'all') as UsersPreferences['status'] })}
          />
          <Select
            w={150}
            label={intl.formatMessage({ id: 'users.filters.role' })}
            data={[
              { value: 'all', label: intl.formatMessage({ id: 'users.filters.allRoles' }) },
              { value: 'admin', label: intl.formatMessage({ id: 'users.role.admin' }) },
              { value: 'client', label: intl.formatMessage({ id: 'users.role.client' }) },
              { value: 'moderator', label: intl.formatMessage({ id: 'users.role.moderator' }) },
            ]}
            value={prefs.role}
            allowDeselect={false}
            onChange={(value) => update({ role: (value ?? 'all') as UsersPreferences['role'] })}
          />
          <Select
            w={170}
            label={intl.formatMessage({ id: 'users.filters.emailStatus' })}
            data={[
              { value: 'all', label: intl.formatMessage({ id: 'users.filters.allEmail' }) },
              { value: 'verified', label: intl.formatMessage({ id: 'users.email.verified' }) },
              { value: 'unverified', label: intl.formatMessage({ id: 'users.email.unverified' }) },
            ]}
            value={prefs.emailStatus}
            allowDeselect={false}
            onChange={(value) => update({ emailStatus: (value ?? 'all') as UsersPreferences['emailStatus'] })}
          />
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={16} />}
            disabled={!filtered}
            onClick={() => update({ ...DEFAULT_PREFERENCES, limit: prefs.limit, sort: prefs.sort, order: prefs.order })}
          >
            <FormattedMessage id="users.filters.clear" />
          </Button>
        </Group>
        <Group justify="space-between" mt="sm">
          <Text fz="sm" c="dimmed" data-testid="users-shown">
            <FormattedMessage id="users.shown" values={{ shown: meta?.total ?? 0, total: meta?.overall_total ?? 0 }} />
          </Text>
          <Group gap={6}>
            <Text fz="sm" c="dimmed" component="label" htmlFor="users-page-size">
              <FormattedMessage id="users.rowsPerPage" />
            </Text>
            <Select
              id="users-page-size"
              w={80}
              size="xs"
              data={PAGE_SIZES.map(String)}
              value={String(prefs.limit)}
              allowDeselect={false}
              onChange={(value) => update({ limit: Number(value) as UsersPreferences['limit'] })}
            />
          </Group>
        </Group>
      </Card>

      <Card withBorder radius="md" p={0}>
        {list.isLoading ? (
          <Group justify="center" p="xl">
            <Loader />
          </Group>
        ) : users.length === 0 ? (
          <Stack align="center" gap={6} p="xl" ta="center" data-testid="users-empty">
            <IconUsers size={40} color="var(--mantine-color-gray-5)" aria-hidden />
            <Text fw={600}>
              <FormattedMessage id="users.empty.title" />
            </Text>
            <Text fz="sm" c="dimmed">
              <FormattedMessage id={filtered ? 'users.empty.filtered' : 'users.empty.none'} />
            </Text>
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={960}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="users-table">
              <Table.Thead>
                <Table.Tr>
                  {COLUMNS.map(({ sort, label }) => (
                    <SortableTh key={sort} active={prefs.sort === sort} order={prefs.order} onSort={() => sortBy(sort)}>
                      <FormattedMessage id={label} />
                    </SortableTh>
                  ))}
                  <Table.Th>
                    <FormattedMessage id="users.columns.actions" />
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.map((user) => (
                  <Table.Tr key={user.id} data-testid={`user-row-${user.email}`}>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Avatar color="violet" radius="xl" size={34}>
                          {initials(user)}
                        </Avatar>
                        <Box>
                          <Text fz="sm" fw={600}>
                            {user.full_name || '—'}
                          </Text>
                          <Text fz="xs" c="dimmed">
                            {user.email}
                          </Text>
                        </Box>
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={ROLE_COLORS[user.role]} variant="light">
                        <FormattedMessage id={`users.role.${user.role}`} />
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={user.is_active ? 'green' : 'red'} variant="dot">
                        <FormattedMessage id={user.is_active ? 'users.status.active' : 'users.status.inactive'} />
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={user.is_verified ? 'teal' : 'gray'} variant="light">
                        <FormattedMessage id={user.is_verified ? 'users.email.verified' : 'users.email.unverified'} />
                      </Badge>
                    </Table.Td>
                    <Table.Td fz="sm">
                      {user.last_login ? (
                        <FormattedDate value={user.last_login} dateStyle="medium" />
                      ) : (
                        <FormattedMessage id="users.never" />
                      )}
                    </Table.Td>
                    <Table.Td fz="sm">
                      <FormattedDate value={user.created_at} dateStyle="medium" />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={intl.formatMessage({ id: 'common.edit' })}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={intl.formatMessage({ id: 'users.actions.edit' }, { email: user.email })}
                            onClick={() => setEditing(user)}
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        {!user.is_verified && (
                          <Tooltip label={intl.formatMessage({ id: 'users.actions.verifyShort' })}>
                            <ActionIcon
                              variant="subtle"
                              color="teal"
                              aria-label={intl.formatMessage({ id: 'users.actions.verify' }, { email: user.email })}
                              onClick={() => verify.mutate({ id: user.id })}
                            >
                              <IconCheck size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                        <Tooltip
                          label={intl.formatMessage({
                            id: user.is_active ? 'users.actions.deactivateShort' : 'users.actions.activateShort',
                          })}
                        >
                          <ActionIcon
                            variant="subtle"
                            color={user.is_active ? 'orange' : 'green'}
                            aria-label={intl.formatMessage(
                              { id: user.is_active ? 'users.actions.deactivate' : 'users.actions.activate' },
                              { email: user.email },
                            )}
                            onClick={() => toggle.mutate({ id: user.id })}
                          >
                            {user.is_active ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={intl.formatMessage({ id: 'common.delete' })}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={intl.formatMessage({ id: 'users.actions.delete' }, { email: user.email })}
                            onClick={() => confirmDelete(user)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>

      {meta && (
        <PagerBar
          page={meta.page}
          pages={meta.pages}
          onPage={(page) => setPrefs((current) => ({ ...current, page }))}
          summary={<FormattedMessage id="users.showing" values={{ from, to, total: meta.total }} />}
        />
      )}

      {editing && (
        <UserFormModal
          opened
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            afterAction(message);
          }}
        />
      )}
    </Stack>
  );
}
