import { Divider, Group, PasswordInput, Select, SimpleGrid, Switch, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import { useCreateUser, useUpdateUser } from '../../../api/generated/endpoints/users/users';
import type { AdminUserDto, CreateUserDto } from '../../../api/generated/model';
import { FormModal } from '../../../components/FormModal';
import { useFormSubmit } from '../../../components/use-form-submit';
import { emailError } from '../../../lib/email';

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
  is_active: boolean;
  is_verified: boolean;
}

interface UserFormModalProps {
  /** The user being edited; absent when adding one. */
  user: AdminUserDto | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

function When({ value }: { value: string | null | undefined }) {
  if (!value) return <FormattedMessage id="users.never" />;
  return (
    <>
      <FormattedDate value={value} dateStyle="medium" /> <FormattedTime value={value} />
    </>
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

  const submit = useFormSubmit(form, {
    failure: 'users.errors.save',
    send: async (values) => {
      const body: CreateUserDto = { ...values, email: values.email.trim() };
      if (user) {
        const { password, ...rest } = body;
        await update.mutateAsync({ id: user.id, data: password ? body : rest });
        onSaved(intl.formatMessage({ id: 'users.messages.updated' }));
      } else {
        await create.mutateAsync({ data: body });
        onSaved(intl.formatMessage({ id: 'users.messages.created' }));
      }
    },
  });

  return (
    <FormModal
      onClose={onClose}
      size="lg"
      title={editing ? 'users.form.editTitle' : 'users.form.addTitle'}
      submit={submit}
      submitLabel={editing ? 'users.form.update' : 'users.form.create'}
      saving={create.isPending || update.isPending}
    >
      <Divider label={intl.formatMessage({ id: 'users.form.personal' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={intl.formatMessage({ id: 'fields.firstName' })} {...form.getInputProps('first_name')} />
        <TextInput label={intl.formatMessage({ id: 'fields.lastName' })} {...form.getInputProps('last_name')} />
        <TextInput label={intl.formatMessage({ id: 'fields.email' })} type="email" required {...form.getInputProps('email')} />
        <TextInput label={intl.formatMessage({ id: 'fields.phone' })} type="tel" {...form.getInputProps('phone')} />
        <TextInput label={intl.formatMessage({ id: 'fields.country' })} {...form.getInputProps('country')} />
        <TextInput label={intl.formatMessage({ id: 'fields.company' })} {...form.getInputProps('company')} />
      </SimpleGrid>

      <Divider label={intl.formatMessage({ id: 'users.form.security' })} labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <PasswordInput
          label={intl.formatMessage({ id: 'fields.password' })}
          required={!editing}
          description={intl.formatMessage({ id: editing ? 'users.form.passwordKeep' : 'users.form.passwordHint' })}
          autoComplete="new-password"
          {...form.getInputProps('password')}
        />
        <Select
          label={intl.formatMessage({ id: 'users.form.userType' })}
          data={[
            { value: 'client', label: intl.formatMessage({ id: 'users.role.client' }) },
            { value: 'admin', label: intl.formatMessage({ id: 'users.role.admin' }) },
          ]}
          allowDeselect={false}
          {...form.getInputProps('user_type')}
        />
      </SimpleGrid>

      <Divider label={intl.formatMessage({ id: 'users.form.status' })} labelPosition="left" />
      <Group gap="xl">
        <Switch label={intl.formatMessage({ id: 'users.form.active' })} {...form.getInputProps('is_active', { type: 'checkbox' })} />
        <Switch label={intl.formatMessage({ id: 'users.form.verified' })} {...form.getInputProps('is_verified', { type: 'checkbox' })} />
      </Group>

      {user && (
        <>
          <Divider label={intl.formatMessage({ id: 'users.form.accountInfo' })} labelPosition="left" />
          <Table fz="sm" withRowBorders={false} verticalSpacing={4} data-testid="account-info">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>{intl.formatMessage({ id: 'users.form.userId' })}</Table.Th>
                <Table.Td>{user.id}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{intl.formatMessage({ id: 'users.columns.created' })}</Table.Th>
                <Table.Td>
                  <When value={user.created_at} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{intl.formatMessage({ id: 'users.columns.lastLogin' })}</Table.Th>
                <Table.Td>
                  <When value={user.last_login} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{intl.formatMessage({ id: 'users.form.updated' })}</Table.Th>
                <Table.Td>
                  <When value={user.updated_at} />
                </Table.Td>
              </Table.Tr>
              {user.verification_token && (
                <Table.Tr>
                  <Table.Th>{intl.formatMessage({ id: 'users.form.verificationToken' })}</Table.Th>
                  <Table.Td>
                    <Text ff="monospace" fz="xs" span>
                      {user.verification_token}…
                    </Text>{' '}
                    <FormattedMessage id="users.form.expires" /> <When value={user.verification_token_expires} />
                  </Table.Td>
                </Table.Tr>
              )}
              {user.password_reset_expires && (
                <Table.Tr data-testid="pending-reset">
                  <Table.Th>{intl.formatMessage({ id: 'users.form.resetPending' })}</Table.Th>
                  <Table.Td>
                    <FormattedMessage
                      id={new Date(user.password_reset_expires) > new Date() ? 'users.form.expires' : 'users.form.expired'}
                    />{' '}
                    <When value={user.password_reset_expires} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </>
      )}
    </FormModal>
  );
}
