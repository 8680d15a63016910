import { Avatar, Badge, Box, Group, Text } from '@mantine/core';
import { IconCheck, IconPencil, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { AdminUserDto, ListUsersSort } from '../../../api/generated/model';
import { ListColumn, ListTable, ScreenTableProps } from '../../../components/admin-list/ListTable';
import { deleteAction } from '../../../components/admin-list/RowAction';
import { WrapEmails } from '../../../components/WrapEmails';
import type { MessageId } from '../../../i18n/message-id';
import { useAuth } from '../../../lib/auth/auth-context';

const ROLE_COLORS: Record<string, string> = { admin: 'violet', moderator: 'blue', client: 'gray' };

const initials = (user: AdminUserDto) => (`${user.first_name[0] ?? ''}${user.last_name[0] ?? ''}` || user.email[0]).toUpperCase();

const nowrap = { style: { whiteSpace: 'nowrap' }, fz: 'sm' } as const;

/** A cell's badge: a message in a color. */
function Tag({ color, id, variant = 'light' }: { color: string; id: MessageId; variant?: 'light' | 'dot' }) {
  return (
    <Badge color={color} variant={variant}>
      <FormattedMessage id={id} />
    </Badge>
  );
}

const STATUS_TAGS = { true: { color: 'green', id: 'users.status.active' }, false: { color: 'red', id: 'users.status.inactive' } } as const;
const EMAIL_TAGS = { true: { color: 'teal', id: 'users.email.verified' }, false: { color: 'gray', id: 'users.email.unverified' } } as const;

const COLUMNS: Array<ListColumn<AdminUserDto, ListUsersSort>> = [
  {
    sort: 'name',
    label: 'users.columns.user',
    cell: (user, { narrow }) => (
      <Group gap="sm" wrap="nowrap">
        {!narrow && (
          <Avatar color="violet" radius="xl" size={34}>
            {initials(user)}
          </Avatar>
        )}
        <Box miw={0}>
          <Text fz="sm" fw={600}>
            {user.full_name || '—'}
          </Text>
          <Text fz="xs" c="dimmed">
            <WrapEmails text={user.email} />
          </Text>
        </Box>
      </Group>
    ),
  },
  { sort: 'role', label: 'users.columns.role', cell: (user) => <Tag color={ROLE_COLORS[user.role]} id={`users.role.${user.role}`} /> },
  { sort: 'status', label: 'users.columns.status', cell: (user) => <Tag variant="dot" {...STATUS_TAGS[`${user.is_active}`]} /> },
  { sort: 'is_verified', label: 'users.columns.email', cell: (user) => <Tag {...EMAIL_TAGS[`${user.is_verified}`]} /> },
  {
    sort: 'last_login',
    label: 'users.columns.lastLogin',
    td: nowrap,
    cell: (user) =>
      user.last_login ? <FormattedDate value={user.last_login} dateStyle="medium" /> : <FormattedMessage id="users.never" />,
  },
  {
    sort: 'created_at',
    label: 'users.columns.created',
    td: nowrap,
    cell: (user) => <FormattedDate value={user.created_at} dateStyle="medium" />,
  },
];

type UsersTableProps = ScreenTableProps<AdminUserDto, ListUsersSort, 'onEdit' | 'onVerify' | 'onToggle' | 'onDelete'>;

/** The Users Management table: user, role, status, e-mail, last login, created (all sortable) and actions. */
export function UsersTable({ rows, sorting, onEdit, onVerify, onToggle, onDelete }: UsersTableProps) {
  // The signed-in admin's own row: the server refuses deactivating or deleting it, so the buttons say so first.
  const me = useAuth().user?.id;
  const intl = useIntl();
  return (
    <ListTable
      rows={rows}
      rowProps={(user) => ({ 'data-testid': `user-row-${user.email}` })}
      columns={COLUMNS}
      sorting={sorting}
      testId="users-table"
      actions={{
        name: (user) => user.email,
        items: (user) => {
          const email = { email: user.email };
          const own = (id: MessageId) => (user.id === me ? { disabled: true, tooltip: intl.formatMessage({ id }) } : {});
          return [
            {
              icon: IconPencil,
              tooltip: intl.formatMessage({ id: 'common.edit' }),
              label: intl.formatMessage({ id: 'users.actions.edit' }, email),
              onClick: () => onEdit(user),
            },
            !user.is_verified && {
              icon: IconCheck,
              color: 'teal',
              tooltip: intl.formatMessage({ id: 'users.actions.verifyShort' }),
              label: intl.formatMessage({ id: 'users.actions.verify' }, email),
              onClick: () => onVerify(user),
            },
            {
              icon: user.is_active ? IconPlayerPause : IconPlayerPlay,
              color: user.is_active ? 'orange' : 'green',
              tooltip: intl.formatMessage({ id: user.is_active ? 'users.actions.deactivateShort' : 'users.actions.activateShort' }),
              label: intl.formatMessage({ id: user.is_active ? 'users.actions.deactivate' : 'users.actions.activate' }, email),
              onClick: () => onToggle(user),
              ...(user.is_active ? own('users.actions.selfDeactivate') : {}),
            },
            {
              ...deleteAction(intl, { label: intl.formatMessage({ id: 'users.actions.delete' }, email), onClick: () => onDelete(user) }),
              ...own('users.actions.selfDelete'),
            },
          ];
        },
      }}
    />
  );
}
