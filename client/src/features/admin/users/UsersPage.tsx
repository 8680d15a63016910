import { Button, Group, Select, Text } from '@mantine/core';
import { IconFilterOff, IconPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  getListUsersQueryOptions,
  useDeleteUser,
  useToggleUserStatus,
  useVerifyUserEmail,
} from '../../../api/generated/endpoints/users/users';
import type { AdminUserDto } from '../../../api/generated/model';
import { FilterSelect, RefreshButton } from '../../../components/admin-list/ListFrame';
import { ListScreen } from '../../../components/admin-list/ListScreen';
import { useAdminActions } from '../../../components/admin-list/use-admin-actions';
import { useServerList } from '../../../components/admin-list/use-server-list';
import { confirmAction } from '../../../components/confirm-action';
import { SearchField } from '../../../components/SearchField';
import type { MessageId } from '../../../i18n/message-id';
import { PAGE_SIZES, toListParams, USERS_LIST, UsersPreferences } from './preferences';
import { UserFormModal } from './UserFormModal';
import { UsersTable } from './UsersTable';

/** Success banners clear after 3 s (admin spec section 9). */
const SUCCESS_MS = 3000;

const FILTERS: Array<{ name: 'status' | 'role' | 'emailStatus'; label: MessageId; width: number; options: Array<[string, MessageId]> }> = [
  {
    name: 'status',
    label: 'users.filters.status',
    width: 150,
    options: [
      ['all', 'users.filters.allStatuses'],
      ['active', 'users.status.active'],
      ['inactive', 'users.status.inactive'],
    ],
  },
  {
    name: 'role',
    label: 'users.filters.role',
    width: 150,
    options: [
      ['all', 'users.filters.allRoles'],
      ['admin', 'users.role.admin'],
      ['client', 'users.role.client'],
      ['moderator', 'users.role.moderator'],
    ],
  },
  {
    name: 'emailStatus',
    label: 'users.filters.emailStatus',
    width: 170,
    options: [
      ['all', 'users.filters.allEmail'],
      ['verified', 'users.email.verified'],
      ['unverified', 'users.email.unverified'],
    ],
  },
];

export default function UsersPage() {
  const intl = useIntl();
  const list = useServerList(USERS_LIST, (state) => getListUsersQueryOptions(toListParams(state)));
  const actions = useAdminActions({ successMs: SUCCESS_MS, refresh: list.refresh });
  const [editing, setEditing] = useState<AdminUserDto | 'new' | null>(null);
  const { state, meta } = list;
  const users = list.result.data?.data ?? [];

  const verify = useVerifyUserEmail(actions.mutation({ success: 'users.messages.verified', failure: 'users.errors.verify' }));
  const toggle = useToggleUserStatus(
    actions.mutation({
      success: ({ data }) => intl.formatMessage({ id: data.is_active ? 'users.messages.activated' : 'users.messages.deactivated' }),
      failure: 'users.errors.status',
    }),
  );
  const remove = useDeleteUser(actions.mutation({ success: 'users.messages.deleted', failure: 'users.errors.delete' }));

  const confirmDelete = (user: AdminUserDto) =>
    confirmAction(intl, {
      title: 'users.delete.title',
      children: <Text fz="sm">{intl.formatMessage({ id: 'users.delete.confirm' }, { email: user.email })}</Text>,
      confirm: 'common.delete',
      onConfirm: () => remove.mutate({ id: user.id }),
    });

  return (
    <ListScreen
      title="users.title"
      subtitle={
        <span data-testid="users-count">
          <FormattedMessage id="users.count" values={{ count: meta?.overall_total ?? 0 }} />
        </span>
      }
      actions={
        <>
          <RefreshButton result={list.result} onClick={list.refresh} />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            <FormattedMessage id="users.add" />
          </Button>
        </>
      }
      feedback={actions.feedback}
      list={list}
      filters={
        <>
          <SearchField label="users.filters.searchLabel" placeholder="users.filters.search" {...list.searchProps} />
          {FILTERS.map((filter) => (
            <FilterSelect
              key={filter.name}
              w={filter.width}
              label={intl.formatMessage({ id: filter.label })}
              options={filter.options.map(([value, label]) => ({ value, label: intl.formatMessage({ id: label }) }))}
              value={state[filter.name]}
              onChange={(value) => list.update({ [filter.name]: value as UsersPreferences[typeof filter.name] })}
            />
          ))}
          <Button variant="subtle" leftSection={<IconFilterOff size={16} />} disabled={!list.filtered} onClick={list.clearFilters}>
            <FormattedMessage id="users.filters.clear" />
          </Button>
        </>
      }
      filtersFooter={
        <>
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
              value={String(state.limit)}
              allowDeselect={false}
              onChange={(value) => list.update({ limit: Number(value) })}
            />
          </Group>
        </>
      }
      isEmpty={users.length === 0}
      empty={{ icon: IconUsers, testId: 'users-empty' }}
      pager={{ summary: 'users.showing', singlePageSummary: false }}
      table={
        <UsersTable
          rows={users}
          sorting={list.sorting}
          onEdit={setEditing}
          onVerify={(user) => verify.mutate({ id: user.id })}
          onToggle={(user) => toggle.mutate({ id: user.id })}
          onDelete={confirmDelete}
        />
      }
    >
      {editing && <UserFormModal user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={actions.succeeded} />}
    </ListScreen>
  );
}
