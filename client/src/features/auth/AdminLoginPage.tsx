import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import type { AdminSessionDataDto, MfaChallengeDto } from '../../api/generated/model';
import { useAuth } from '../../lib/auth/auth-context';
import { rememberedOrigin } from '../../lib/auth/remembered-origin';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../../components/ErrorAlert';
import { EmailInput } from '../../components/EmailInput';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { localizeServerMessage } from '../../lib/server-messages';
import { MfaEnrolStep, MfaVerifyStep } from './AdminMfaSteps';
import { useField } from '../../components/use-field';
import { CurrentPasswordInput } from '../../components/PasswordInput';

export default function AdminLoginPage() {
  const intl = useIntl();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // After the password: the second step of a two-factor sign-in, if the answer asks for one.
  const [challenge, setChallenge] = useState<MfaChallengeDto | null>(null);
  const { notice, email: knownEmail } = (location.state as { notice?: 'passwordReset'; email?: string } | null) ?? {};
  const form = useForm({ initialValues: { email: knownEmail ?? '', password: '' } });
  const field = useField(form);

  if (auth.status === 'signedIn' && auth.isAdmin && !submitting) return <Navigate to={paths.admin.dashboard} replace />;

  const enter = () => navigate(rememberedOrigin(location.state, paths.admin.dashboard), { replace: true });
  const startOver = (reason: string | null) => {
    setChallenge(null);
    setSubmitting(false);
    setError(reason);
    form.setFieldValue('password', '');
  };
  const acceptSession = (data: AdminSessionDataDto) => {
    auth.acceptAdminSession(data);
    enter();
  };

  const submit = form.onSubmit(async ({ email, password }) => {
    setSubmitting(true);
    setError(null);
    try {
      const result = await auth.adminLogin(email, password);
      if (result.challenge) {
        setChallenge(result.challenge);
        return;
      }
      enter();
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : 'Admin login failed');
      setSubmitting(false);
    }
  });

  if (challenge?.mfa === 'verify') return <MfaVerifyStep challenge={challenge} onSession={acceptSession} onStartOver={startOver} />;
  if (challenge?.mfa === 'enroll') return <MfaEnrolStep challenge={challenge} onSession={acceptSession} onStartOver={startOver} />;

  return (
    <AuthLayout title={<FormattedMessage id="adminLogin.title" />} subtitle={<FormattedMessage id="adminLogin.subtitle" />}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {notice === 'passwordReset' && (
            <Alert color="green" variant="light" icon={<IconInfoCircle size={18} />} role="status">
              <FormattedMessage id="login.notice.passwordReset" />
            </Alert>
          )}
          {error && (
            <ErrorAlert>
              {error === 'Admin login failed' ? intl.formatMessage({ id: 'errors.adminLogin.failed' }) : localizeServerMessage(intl, error)}
            </ErrorAlert>
          )}
          <EmailInput autoComplete="username" {...form.getInputProps('email')} />
          <CurrentPasswordInput {...field('password', 'fields.password')} />
          <Anchor component={Link} to={paths.forgotPassword} state={{ door: 'admin' }} fz="sm" mt={-8} style={{ alignSelf: 'flex-end' }}>
            <FormattedMessage id="login.forgot" />
          </Anchor>
          <Button type="submit" fullWidth loading={submitting} leftSection={<IconShieldLock size={16} />}>
            <FormattedMessage id="adminLogin.submit" />
          </Button>
          <Anchor component={Link} to={paths.home} fz="sm" ta="center">
            <FormattedMessage id="common.backHome" />
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
