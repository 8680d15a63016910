import { Alert, Button, Card, Group, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm, UseFormReturnType } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { IconMailForward } from '@tabler/icons-react';
import { ReactNode, useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import {
  getGetProfileQueryKey,
  getListSessionsQueryKey,
  useChangePassword,
  useRequestEmailChange,
  useUpdateProfile,
} from '../../api/generated/endpoints/account/account';
import type { ProfileDto } from '../../api/generated/model';
import { FormError } from '../../components/FormError';
import { NameFields } from '../../components/NameFields';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { SuccessAlert } from '../../components/SuccessAlert';
import { useAuth } from '../../lib/auth/auth-context';
import { emailError } from '../../lib/email';
import { applyFieldErrors, formatFieldErrors } from '../../lib/field-errors';
import { NewPasswordValues, validateNewPassword } from '../../lib/password-rules';
import { localizeServerMessage } from '../../lib/server-messages';
import type { MessageId } from '../../i18n/message-id';
import { MessageText } from '../../components/Message';
import { useField } from '../../components/use-field';
import { CurrentPasswordInput } from '../../components/PasswordInput';

export function Section({ title, children, testId }: { title: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" p="lg" data-testid={testId}>
      <Stack gap="md">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/**
 * What a card's submit leaves: a note that it worked (until closed or sent again), and the server's field errors under
 * their fields (FormError shows the rest).
 */
function useCardOutcome<T extends object>(form: UseFormReturnType<T>) {
  const intl = useIntl();
  const [done, setDone] = useState(false);
  return {
    /** The note, while it shows. */
    note: (message: MessageId) =>
      done && (
        <SuccessAlert onClose={() => setDone(false)}>
          <FormattedMessage id={message} />
        </SuccessAlert>
      ),
    /** A mutate call's callbacks: `then` takes the answer before the note shows. */
    callbacks: <A,>(then: (answer: A) => void) => {
      setDone(false);
      return {
        onSuccess: (answer: A) => {
          then(answer);
          setDone(true);
        },
        onError: (error: Error) => applyFieldErrors(form, error, { localize: (message) => localizeServerMessage(intl, message) }),
      };
    },
  };
}

/** First and last name, company, phone, country. */
export function PersonalInfoCard({ profile }: { profile: ProfileDto }) {
  const intl = useIntl();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const update = useUpdateProfile();
  const form = useForm({
    initialValues: {
      first_name: profile.first_name,
      last_name: profile.last_name,
      company: profile.company ?? '',
      phone: profile.phone ?? '',
      country: profile.country ?? '',
    },
    validate: {
      first_name: (value) => (value.trim() ? null : intl.formatMessage({ id: 'register.errors.required' })),
      last_name: (value) => (value.trim() ? null : intl.formatMessage({ id: 'register.errors.required' })),
    },
  });
  const field = useField(form);

  const outcome = useCardOutcome(form);
  const submit = form.onSubmit((values) =>
    update.mutate(
      { data: values },
      outcome.callbacks(({ data }) => {
        queryClient.setQueryData(getGetProfileQueryKey(), { success: true, data });
        form.resetDirty();
        // The shell's welcome line shows the new name.
        void auth.refreshUser().catch(() => undefined);
      }),
    ),
  );

  return (
    <Section title={<FormattedMessage id="account.personal.title" />} testId="personal-info">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {outcome.note('account.personal.saved')}
          <FormError form={form} error={update.error} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NameFields form={form} />
            <TextInput autoComplete="organization" {...field('company', 'fields.company')} />
            <TextInput type="tel" autoComplete="tel" {...field('phone', 'fields.phone')} />
            <TextInput autoComplete="country-name" {...field('country', 'fields.country')} />
          </SimpleGrid>
          <Button type="submit" loading={update.isPending} style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="account.personal.save" />
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

/** The address signed in with, and a change of it that waits for the new address to confirm it. */
export function EmailCard({ profile }: { profile: ProfileDto }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const change = useRequestEmailChange();
  const form = useForm({
    initialValues: { email: '', current_password: '' },
    validate: {
      email: (value) => emailError(intl, value),
      current_password: (value) => (value ? null : intl.formatMessage({ id: 'errors.password.currentRequired' })),
    },
  });
  const field = useField(form);

  const outcome = useCardOutcome(form);
  const submit = form.onSubmit((values) =>
    change.mutate(
      { data: { email: values.email.trim(), current_password: values.current_password } },
      outcome.callbacks(({ data }) => {
        queryClient.setQueryData(getGetProfileQueryKey(), { success: true, data });
        form.reset();
      }),
    ),
  );

  return (
    <Section title={<FormattedMessage id="account.email.title" />} testId="email-address">
      <MessageText fz="sm" message="account.email.current" values={{ email: <strong>{profile.email}</strong> }} />
      {outcome.note('account.email.sent')}
      {profile.pending_email && profile.pending_email_expires && (
        <Alert color="blue" variant="light" icon={<IconMailForward size={18} />} data-testid="pending-email">
          <FormattedMessage
            id="account.email.pending"
            values={{
              email: <strong>{profile.pending_email}</strong>,
              date: (
                <>
                  <FormattedDate value={profile.pending_email_expires} dateStyle="medium" />{' '}
                  <FormattedTime value={profile.pending_email_expires} />
                </>
              ),
            }}
          />
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError form={form} error={change.error} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput type="email" autoComplete="email" required {...field('email', 'account.email.new')} />
            <CurrentPasswordInput {...field('current_password', 'fields.currentPassword')} />
          </SimpleGrid>
          <Button type="submit" variant="light" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="account.email.submit" />
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

/** A new password, given the current one; every other session is signed out. */
export function PasswordCard() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const change = useChangePassword();
  const form = useForm<NewPasswordValues & { current_password: string }>({
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: (values) => ({
      ...(values.current_password ? {} : { current_password: intl.formatMessage({ id: 'errors.password.currentRequired' }) }),
      ...formatFieldErrors(intl, validateNewPassword(values)),
    }),
  });
  const field = useField(form);

  const outcome = useCardOutcome(form);
  const submit = form.onSubmit((values) =>
    change.mutate(
      { data: values },
      outcome.callbacks(() => {
        form.reset();
        void queryClient.invalidateQueries({ queryKey: getListSessionsQueryKey() });
      }),
    ),
  );

  return (
    <Section title={<FormattedMessage id="account.password.title" />} testId="password">
      <MessageText fz="sm" c="dimmed" message="account.password.text" />
      {outcome.note('account.password.changed')}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormError form={form} error={change.error} />
          <CurrentPasswordInput {...field('current_password', 'fields.currentPassword')} />
          <NewPasswordFields form={form} kind="new" inline />
          <Group>
            <Button type="submit" loading={change.isPending}>
              <FormattedMessage id="account.password.submit" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
