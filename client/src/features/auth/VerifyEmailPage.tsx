import { Alert, Button, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { useResendVerification, useVerifyEmail } from '../../api/generated/endpoints/auth/auth';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../../components/ErrorAlert';
import { EmailInput } from '../../components/EmailInput';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { DonePanel } from '../../components/DonePanel';
import { WaitingPanel } from '../../components/WaitingPanel';
import { localizeServerMessage } from '../../lib/server-messages';
import { MessageText } from '../../components/Message';
import { useLinkToken } from './AuthLinks';

/** Landing page of the link in the verification mail: verifies once, or offers a new link. */
export default function VerifyEmailPage() {
  const intl = useIntl();
  const token = useLinkToken();
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const [email, setEmail] = useState('');
  const sent = useRef(false);

  useEffect(() => {
    // Once per page: the token is single-use, so a second request would report it as spent.
    if (sent.current || !token) return;
    sent.current = true;
    verify.mutate({ data: { token } });
  }, [token, verify]);

  const failed = !token || verify.isError;
  return (
    <AuthLayout title={<FormattedMessage id="verify.title" />}>
      {verify.isPending && <WaitingPanel message="verify.checking" />}
      {verify.isSuccess && (
        <DonePanel>
          <MessageText fw={600} message="verify.success" />
          <Button component={Link} to={paths.login} state={{ notice: 'verified' }} fullWidth>
            <FormattedMessage id="verify.toLogin" />
          </Button>
        </DonePanel>
      )}
      {failed && (
        <Stack gap="md">
          <ErrorAlert>
            {verify.error ? localizeServerMessage(intl, verify.error.message) : intl.formatMessage({ id: 'verify.invalid' })}
          </ErrorAlert>
          <MessageText fz="sm" message="verify.resendText" />
          <EmailInput required={false} autoComplete={undefined} value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
          <Button disabled={!email.trim()} loading={resend.isPending} onClick={() => resend.mutate({ data: { email: email.trim() } })}>
            <FormattedMessage id="verify.resend" />
          </Button>
          {resend.isSuccess && (
            <Alert color="blue" variant="light" role="status">
              <FormattedMessage id="login.resent" />
            </Alert>
          )}
          {resend.error && <ErrorAlert>{localizeServerMessage(intl, resend.error.message)}</ErrorAlert>}
        </Stack>
      )}
    </AuthLayout>
  );
}
