import { Divider, Group, PasswordInput, Select, SimpleGrid, Switch, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import { useCreateUser, useUpdateUser } from '../../../api/generated/endpoints/users/users';
import type { AdminUserDto, CreateUserDto, VersionChannel } from '../../../api/generated/model';
import { ChannelSelect } from '../../../components/ChannelSelect';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useFormSubmit } from '../../../components/use-form-submit';
import { emailError } from '../../../lib/email';
import type { MessageId } from '../../../i18n/message-id';
import type { ReactNode } from 'react';
import { useField } from '../../../components/use-field';

export const ADMIN_PASSWORD_MIN = 6;

interface FormValues {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  country: string;
  company: string;
  password: string;
  user_type: 'client' | 'admin';
  channel: VersionChannel;
  is_active: boolean;
  is_verified: boolean;
}

type UserFormModalProps = DialogProps<'onSaved', string> & {
  /** The user being edited; absent when adding one. */
  user: AdminUserDto | null;
};

function When({ value }: { value: string | null | undefined }) {
  if (!value) return <FormattedMessage id="users.never" />;
  return (
    <>
      <FormattedDate value={value} dateStyle="medium" /> <FormattedTime value={value} />
    </>
  );
}

/** A row of the account facts: what it is, and its value. */
function Fact({ label, w, testId, children }: { label: MessageId; w?: number; testId?: string; children: ReactNode }) {
  return (
    <Table.Tr data-testid={testId}>
      <Table.Th w={w}>
        <FormattedMessage id={label} />
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

export function UserFormModal({ user, onClose, onSaved }: UserFormModalProps) {
  const intl = useIntl();
  const editing = !!user;
  const create = useCreateUser();
  const update = useUpdateUser();
  const form = useForm<FormValues>({
    initialValues: {
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      email: user?.email ?? '',
      phone: user?.phone ?? '',
      country: user?.country ?? '',
      company: user?.company ?? '',
      password: '',
      user_type: user?.user_type ?? 'client',
      channel: user?.channel ?? 'stable',
      is_active: user?.is_active ?? true,
      is_verified: user?.is_verified ?? false,
    },
    validate: {
      email: (value) => emailError(intl, value, 'users.form.emailRequired'),
      password: (value) => {
        if (editing && !value) return null;
        return value.length < ADMIN_PASSWORD_MIN ? intl.formatMessage({ id: 'users.form.passwordHint' }) : null;
      },
    },
  });
  const field = useField(form);

  const submit = useFormSubmit(form, {
    failure: 'users.errors.save',
    send: async (values) => {
      const body: CreateUserDto = { ...values, email: values.email.trim() };
      if (user) {
        const { password, ...rest } = body;
        await update.mutateAsync({ id: user.id, data: password ? body : rest });
      } else {
        await create.mutateAsync({ data: body });
      }
      onClose();
      onSaved(intl.formatMessage({ id: user ? 'users.messages.updated' : 'users.messages.created' }));
    },
  });

  return (
    <FormModal
      onClose={onClose}
      title={editing ? 'users.form.editTitle' : 'users.form.addTitle'}
      submit={submit}
      submitLabel={editing ? 'users.form.update' : 'users.form.create'}
      saving={create.isPending || update.isPending}
    >
      <Divider label={intl.formatMessage({ id: 'users.form.personal' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput {...field('first_name', 'fields.firstName')} />
        <TextInput {...field('last_name', 'fields.lastName')} />
        <TextInput type="email" required {...field('email', 'fields.email')} />
        <TextInput type="tel" {...field('phone', 'fields.phone')} />
        <TextInput {...field('country', 'fields.country')} />
        <TextInput {...field('company', 'fields.company')} />
      </SimpleGrid>

      <Divider label={intl.formatMessage({ id: 'users.form.security' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <PasswordInput
          required={!editing}
          description={intl.formatMessage({ id: editing ? 'users.form.passwordKeep' : 'users.form.passwordHint' })}
          autoComplete="new-password"
          {...field('password', 'fields.password')}
        />
        <Select
          data={[
            { value: 'client', label: intl.formatMessage({ id: 'users.role.client' }) },
            { value: 'admin', label: intl.formatMessage({ id: 'users.role.admin' }) },
          ]}
          allowDeselect={false}
          {...field('user_type', 'users.form.userType')}
        />
      </SimpleGrid>

      <Divider label={intl.formatMessage({ id: 'users.form.releases' })} labelPosition="left" />
      <ChannelSelect
        description={intl.formatMessage({ id: 'users.form.channelHint' })}
        w={{ base: '100%', sm: '50%' }}
        {...field('channel', 'users.form.channel')}
      />

      <Divider label={intl.formatMessage({ id: 'users.form.status' })} labelPosition="left" />
      <Group gap="xl">
        <Switch {...field('is_active', 'users.form.active', { type: 'checkbox' })} />
        <Switch {...field('is_verified', 'users.form.verified', { type: 'checkbox' })} />
      </Group>

      {user && (
        <>
          <Divider label={intl.formatMessage({ id: 'users.form.accountInfo' })} labelPosition="left" />
          <Table fz="sm" withRowBorders={false} verticalSpacing={4} data-testid="account-info">
            <Table.Tbody>
              <Fact label="users.form.userId" w={180}>
                {user.id}
              </Fact>
              <Fact label="users.columns.created">
                <When value={user.created_at} />
              </Fact>
              <Fact label="users.columns.lastLogin">
                <When value={user.last_login} />
              </Fact>
              <Fact label="users.form.updated">
                <When value={user.updated_at} />
              </Fact>
              {user.verification_token && (
                <Fact label="users.form.verificationToken">
                  <Text ff="monospace" fz="xs" span>
                    {user.verification_token}…
                  </Text>{' '}
                  <FormattedMessage id="users.form.expires" /> <When value={user.verification_token_expires} />
                </Fact>
              )}
              {user.password_reset_expires && (
                <Fact label="users.form.resetPending" testId="pending-reset">
                  <FormattedMessage id={new Date(user.password_reset_expires) > new Date() ? 'users.form.expires' : 'users.form.expired'} />{' '}
                  <When value={user.password_reset_expires} />
                </Fact>
              )}
            </Table.Tbody>
          </Table>
        </>
      )}
    </FormModal>
  );
}
