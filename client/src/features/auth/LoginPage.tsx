import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useResendVerification } from '../../api/generated/endpoints/auth/auth';
import { useAuth } from '../../lib/auth/auth-context';
import { rememberedOrigin } from '../../lib/auth/remembered-origin';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { localizeServerMessage } from '../../lib/server-messages';

const UNVERIFIED = 'Account not verified. Please check your email.';

export default function LoginPage() {
  const intl = useIntl();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const { notice, email: knownEmail } =
    (location.state as { notice?: 'registered' | 'verified' | 'passwordReset'; email?: string } | null) ?? {};
  const [error, setError] = useState<string | null>(auth.error);
  const [submitting, setSubmitting] = useState(false);
  const resend = useResendVerification();
  const form = useForm({ initialValues: { email: knownEmail ?? '', password: '' } });

  if (auth.status === 'signedIn' && !submitting) return <Navigate to={paths.dashboard} replace />;

  const submit = form.onSubmit(async ({ email, password }) => {
    if (!email.trim() || !password) {
      setError('Email and password are required');
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await auth.login(email, password);
      navigate(rememberedOrigin(location.state, paths.dashboard), { replace: true });
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : 'Login failed. Please try again.');
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout title={<FormattedMessage id="login.title" />} subtitle={<FormattedMessage id="login.subtitle" />}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {notice && (
            <Alert color="green" variant="light" icon={<IconInfoCircle size={18} />} role="status">
              <FormattedMessage id={`login.notice.${notice}`} />
            </Alert>
          )}
          {error && (
            <ErrorAlert
              actions={
                error === UNVERIFIED && (
                  <Button
                    size="xs"
                    variant="white"
                    color="red"
                    leftSection={<IconMailForward size={14} />}
                    loading={resend.isPending}
                    onClick={() => resend.mutate({ data: { email: form.getValues().email.trim() } })}
                  >
                    <FormattedMessage id="login.resend" />
                  </Button>
                )
              }
            >
              {error === 'Login failed. Please try again.'
                ? intl.formatMessage({ id: 'errors.login.failed' })
                : localizeServerMessage(intl, error)}
            </ErrorAlert>
          )}
          {resend.isSuccess && (
            <Alert color="blue" variant="light" role="status">
              <FormattedMessage id="login.resent" />
            </Alert>
          )}
          <TextInput
            label={intl.formatMessage({ id: 'fields.email' })}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={intl.formatMessage({ id: 'fields.password' })}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Anchor component={Link} to={paths.forgotPassword} fz="sm" mt={-8} style={{ alignSelf: 'flex-end' }}>
            <FormattedMessage id="login.forgot" />
          </Anchor>
          <Button type="submit" fullWidth loading={submitting}>
            <FormattedMessage id="login.submit" />
          </Button>
          <Group justify="space-between" gap="xs">
            <Text fz="sm">
              <FormattedMessage id="login.noAccount" />{' '}
              <Anchor component={Link} to={paths.register} fw={600} fz="sm">
                <FormattedMessage id="login.registerLink" />
              </Anchor>
            </Text>
            <Anchor component={Link} to={paths.home} fz="sm">
              <FormattedMessage id="common.backHome" />
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
