import { Avatar, Badge, Box, Group, Table, Text } from '@mantine/core';
import { IconCheck, IconPencil, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { AdminUserDto, ListUsersSort } from '../../../api/generated/model';
import { Column, ListTable } from '../../../components/admin-list/ListFrame';
import { DeleteAction, RowAction, RowActions } from '../../../components/admin-list/RowAction';
import type { TableSorting } from '../../../components/admin-list/use-server-list';

const COLUMNS: Array<Column<ListUsersSort>> = [
  { sort: 'name', label: 'users.columns.user' },
  { sort: 'role', label: 'users.columns.role' },
  { sort: 'status', label: 'users.columns.status' },
  { sort: 'is_verified', label: 'users.columns.email' },
  { sort: 'last_login', label: 'users.columns.lastLogin' },
  { sort: 'created_at', label: 'users.columns.created' },
];

const ROLE_COLORS: Record<string, string> = { admin: 'violet', moderator: 'blue', client: 'gray' };

const initials = (user: AdminUserDto) => (`${user.first_name[0] ?? ''}${user.last_name[0] ?? ''}` || user.email[0]).toUpperCase();

interface UsersTableProps {
  users: AdminUserDto[];
  sorting: TableSorting<ListUsersSort>;
  onEdit: (user: AdminUserDto) => void;
  onVerify: (user: AdminUserDto) => void;
  onToggle: (user: AdminUserDto) => void;
  onDelete: (user: AdminUserDto) => void;
}

/** The Users Management table: user, role, status, e-mail, last login, created (all sortable) and actions. */
export function UsersTable({ users, sorting, onEdit, onVerify, onToggle, onDelete }: UsersTableProps) {
  const intl = useIntl();
  return (
    <ListTable columns={[...COLUMNS, 'users.columns.actions']} sorting={sorting} minWidth={960} testId="users-table">
      {users.map((user) => {
        const email = { email: user.email };
        return (
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
              {user.last_login ? <FormattedDate value={user.last_login} dateStyle="medium" /> : <FormattedMessage id="users.never" />}
            </Table.Td>
            <Table.Td fz="sm">
              <FormattedDate value={user.created_at} dateStyle="medium" />
            </Table.Td>
            <Table.Td>
              <RowActions>
                <RowAction
                  icon={IconPencil}
                  tooltip={intl.formatMessage({ id: 'common.edit' })}
                  label={intl.formatMessage({ id: 'users.actions.edit' }, email)}
                  onClick={() => onEdit(user)}
                />
                {!user.is_verified && (
                  <RowAction
                    icon={IconCheck}
                    color="teal"
                    tooltip={intl.formatMessage({ id: 'users.actions.verifyShort' })}
                    label={intl.formatMessage({ id: 'users.actions.verify' }, email)}
                    onClick={() => onVerify(user)}
                  />
                )}
                <RowAction
                  icon={user.is_active ? IconPlayerPause : IconPlayerPlay}
                  color={user.is_active ? 'orange' : 'green'}
                  tooltip={intl.formatMessage({
                    id: user.is_active ? 'users.actions.deactivateShort' : 'users.actions.activateShort',
                  })}
                  label={intl.formatMessage({ id: user.is_active ? 'users.actions.deactivate' : 'users.actions.activate' }, email)}
                  onClick={() => onToggle(user)}
                />
                <DeleteAction label={intl.formatMessage({ id: 'users.actions.delete' }, email)} onClick={() => onDelete(user)} />
              </RowActions>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
