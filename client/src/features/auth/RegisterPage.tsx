import { Alert, Anchor, Button, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconUserExclamation } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { useRegister } from '../../api/generated/endpoints/auth/auth';
import { ApiError } from '../../api/http-client';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../../components/ErrorAlert';
import { EmailInput } from '../../components/EmailInput';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { DonePanel } from '../../components/DonePanel';
import { NameFields } from '../../components/NameFields';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { formatFieldErrors } from '../../lib/field-errors';
import { RegistrationValues, validateRegistration } from './registration';
import { localizeServerMessage } from '../../lib/server-messages';
import { OtherDoor } from './AuthLinks';
import { MessageText, MessageTitle } from '../../components/Message';

/** Time the success panel stays before the user is taken to /login (spec section 9). */
export const REGISTRATION_REDIRECT_MS = 2000;

type Failure = { kind: 'duplicate' } | { kind: 'message'; text: string };

export default function RegisterPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const register = useRegister();
  const [failure, setFailure] = useState<Failure | null>(null);
  const form = useForm<RegistrationValues>({
    initialValues: { first_name: '', last_name: '', email: '', password: '', password_confirmation: '' },
    validate: (values) => formatFieldErrors(intl, validateRegistration(values)),
  });

  useEffect(() => {
    if (!register.isSuccess) return;
    const timer = setTimeout(() => navigate(paths.login, { replace: true, state: { notice: 'registered' } }), REGISTRATION_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [register.isSuccess, navigate]);

  const submit = form.onSubmit((values) => {
    setFailure(null);
    register.mutate(
      { data: { ...values, email: values.email.trim(), first_name: values.first_name.trim(), last_name: values.last_name.trim() } },
      {
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fieldErrors : {};
          if (fields.email && error instanceof ApiError && error.status === 409) return setFailure({ kind: 'duplicate' });
          const joined = Object.values(fields)
            .flat()
            .map((message) => localizeServerMessage(intl, message))
            .join(', ');
          const text = joined || localizeServerMessage(intl, error.message || intl.formatMessage({ id: 'register.errors.failed' }));
          setFailure({ kind: 'message', text });
        },
      },
    );
  });

  if (register.isSuccess) {
    return (
      <AuthLayout title={<FormattedMessage id="register.title" />}>
        <DonePanel>
          <MessageTitle order={2} fz="xl" message="register.success.title" />
          <MessageText c="dimmed" message="register.success.text" />
          <MessageText fz="sm" c="dimmed" message="register.success.redirect" />
        </DonePanel>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={<FormattedMessage id="register.title" />} subtitle={<FormattedMessage id="register.subtitle" />} width={520}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure?.kind === 'duplicate' && (
            <Alert color="orange" variant="light" icon={<IconUserExclamation size={18} />} role="alert">
              <FormattedMessage id="register.errors.duplicate" />
              <Anchor component={Link} to={paths.login} display="block" mt="xs" fw={600}>
                <FormattedMessage id="register.goToLogin" />
              </Anchor>
            </Alert>
          )}
          {failure?.kind === 'message' && <ErrorAlert>{failure.text}</ErrorAlert>}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <NameFields form={form} />
          </SimpleGrid>
          <EmailInput {...form.getInputProps('email')} />
          <NewPasswordFields form={form} kind="first" />
          <Button type="submit" fullWidth loading={register.isPending}>
            <FormattedMessage id={register.isPending ? 'register.submitting' : 'register.submit'} />
          </Button>
          <OtherDoor question="register.haveAccount" link="register.loginLink" to={paths.login} />
        </Stack>
      </form>
    </AuthLayout>
  );
}
