import { Button } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { useConfirmEmailChange } from '../../api/generated/endpoints/account/account';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { DonePanel } from '../../components/DonePanel';
import { WaitingPanel } from '../../components/WaitingPanel';
import { useAuth } from '../../lib/auth/auth-context';
import { paths } from '../../lib/paths';
import { localizeServerMessage } from '../../lib/server-messages';
import { MessageText } from '../../components/Message';
import { useLinkToken } from './AuthLinks';

/** Landing page of the link mailed to a new address: makes it the account's address, once. */
export default function ConfirmEmailPage() {
  const intl = useIntl();
  const auth = useAuth();
  const token = useLinkToken();
  const confirm = useConfirmEmailChange();
  const sent = useRef(false);

  useEffect(() => {
    // Once per page: the token is single-use, so a second request would report it as spent.
    if (sent.current || !token) return;
    sent.current = true;
    confirm.mutate({ data: { token } }, { onSuccess: () => void auth.refreshUser().catch(() => undefined) });
  }, [token, confirm, auth]);

  const signedIn = auth.status === 'signedIn';
  const next = signedIn ? (auth.isAdmin ? paths.admin.profile : paths.profile) : auth.status === 'signedOut' ? paths.login : null;
  return (
    <AuthLayout title={<FormattedMessage id="confirmEmail.title" />}>
      {confirm.isPending && <WaitingPanel message="confirmEmail.checking" />}
      {confirm.isSuccess && (
        <DonePanel>
          <MessageText fw={600} message="confirmEmail.success" values={{ email: confirm.data.data.email }} />
          {next && (
            <Button component={Link} to={next} fullWidth>
              <FormattedMessage id={signedIn ? 'confirmEmail.toProfile' : 'verify.toLogin'} />
            </Button>
          )}
        </DonePanel>
      )}
      {(!token || confirm.isError) && (
        <ErrorAlert>
          {confirm.error ? localizeServerMessage(intl, confirm.error.message) : intl.formatMessage({ id: 'confirmEmail.invalid' })}
        </ErrorAlert>
      )}
    </AuthLayout>
  );
}
