import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconInfoCircle, IconMailForward } from '@tabler/icons-react';
import { FormEvent, useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { resendVerification, useAuth } from '../../lib/auth/auth-context';
import { rememberedOrigin } from '../../lib/auth/remembered-origin';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../../components/ErrorAlert';
import { EmailInput } from '../../components/EmailInput';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { localizeServerMessage } from '../../lib/server-messages';
import { OtherDoor } from './AuthLinks';
import { CurrentPasswordInput } from '../../components/PasswordInput';

const UNVERIFIED = 'Account not verified. Please check your email.';

export default function LoginPage() {
  const intl = useIntl();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const { notice: arrivedWith, email: knownEmail } =
    (location.state as { notice?: 'registered' | 'verified' | 'passwordReset'; email?: string } | null) ?? {};
  // The notice is for this arrival only: taken out of the history entry so a reload or a later visit does not repeat it.
  const [notice] = useState(arrivedWith);
  useEffect(() => {
    if (arrivedWith) navigate('.', { replace: true, state: { ...(location.state as object), notice: undefined } });
  }, [arrivedWith, location.state, navigate]);
  const [error, setError] = useState<string | null>(auth.error);
  const [submitting, setSubmitting] = useState(false);
  // Plain state and a plain call, not @mantine/form nor a query hook: the sign-in page is a first page, and those two
  // (with the query cache a hook needs) would add about 16 kB gzip to it.
  const [email, setEmail] = useState(knownEmail ?? '');
  const [password, setPassword] = useState('');
  const [resend, setResend] = useState<'idle' | 'pending' | 'sent'>('idle');
  const resendLink = () => {
    setResend('pending');
    // As a mutation did: a failed resend just lets the button be pressed again.
    resendVerification({ email: email.trim() }).then(
      () => setResend('sent'),
      () => setResend('idle'),
    );
  };

  if (auth.status === 'signedIn' && !submitting) return <Navigate to={paths.dashboard} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await auth.login(email, password);
      navigate(rememberedOrigin(location.state, paths.dashboard), { replace: true });
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : 'Login failed. Please try again.');
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={<FormattedMessage id="login.title" />} subtitle={<FormattedMessage id="login.subtitle" />}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {notice && !error && (
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
                    loading={resend === 'pending'}
                    onClick={resendLink}
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
          {resend === 'sent' && (
            <Alert color="blue" variant="light" role="status">
              <FormattedMessage id="login.resent" />
            </Alert>
          )}
          <EmailInput value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
          <CurrentPasswordInput
            label={intl.formatMessage({ id: 'fields.password' })}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Anchor component={Link} to={paths.forgotPassword} fz="sm" mt={-8} style={{ alignSelf: 'flex-end' }}>
            <FormattedMessage id="login.forgot" />
          </Anchor>
          <Button type="submit" fullWidth loading={submitting}>
            <FormattedMessage id="login.submit" />
          </Button>
          <OtherDoor question="login.noAccount" link="login.registerLink" to={paths.register} />
        </Stack>
      </form>
    </AuthLayout>
  );
}
