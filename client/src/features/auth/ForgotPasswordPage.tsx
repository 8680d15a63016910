import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailForward } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { useForgotPassword } from '../../api/generated/endpoints/auth/auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { EmailInput } from '../../components/EmailInput';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { emailError } from '../../lib/email';
import { paths } from '../../lib/paths';
import { localizeServerMessage } from '../../lib/server-messages';
import { BackToLogin } from './AuthLinks';

/** 'Forgot password?': asks for a reset link. The answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  const intl = useIntl();
  const location = useLocation();
  // Reached from the admin sign-in: the way back leads there.
  const back = (location.state as { door?: 'admin' } | null)?.door === 'admin' ? paths.adminLogin : paths.login;
  const forgot = useForgotPassword();
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (value) => emailError(intl, value),
    },
  });

  const submit = form.onSubmit(({ email }) => forgot.mutate({ data: { email: email.trim() } }));

  return (
    <AuthLayout title={<FormattedMessage id="forgot.title" />} subtitle={<FormattedMessage id="forgot.subtitle" />}>
      {forgot.isSuccess ? (
        <Stack gap="md">
          <Alert color="green" variant="light" icon={<IconMailForward size={18} />} role="status">
            <FormattedMessage id="forgot.sent" />
          </Alert>
          <Button component={Link} to={back} variant="light" fullWidth>
            <FormattedMessage id="forgot.backToLogin" />
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {forgot.error && <ErrorAlert>{localizeServerMessage(intl, forgot.error.message)}</ErrorAlert>}
            <EmailInput {...form.getInputProps('email')} />
            <Button type="submit" fullWidth loading={forgot.isPending}>
              <FormattedMessage id="forgot.submit" />
            </Button>
            <BackToLogin to={back} />
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
