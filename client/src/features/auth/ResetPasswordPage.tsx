import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { useResetPassword } from '../../api/generated/endpoints/auth/auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FormError } from '../../components/FormError';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { applyFieldErrors, formatFieldErrors } from '../../lib/field-errors';
import { NewPasswordValues, validateNewPassword } from '../../lib/password-rules';
import { paths } from '../../lib/paths';
import { localizeServerMessage } from '../../lib/server-messages';
import { BackToLogin, useLinkToken } from './AuthLinks';

const LINK_INVALID = 'This password reset link is invalid or has expired.';

/** Landing page of the link in the reset mail: a new password, once; then the sign-in with a notice. */
export default function ResetPasswordPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const token = useLinkToken();
  const reset = useResetPassword();
  const form = useForm<NewPasswordValues>({
    initialValues: { password: '', password_confirmation: '' },
    validate: (values) => formatFieldErrors(intl, validateNewPassword(values)),
  });
  const localize = (message: string) => localizeServerMessage(intl, message);

  const submit = form.onSubmit((values) =>
    reset.mutate(
      { data: { token, ...values } },
      {
        onSuccess: ({ data }) =>
          navigate(data.user_type === 'admin' ? paths.adminLogin : paths.login, {
            replace: true,
            state: { notice: 'passwordReset', email: data.email },
          }),
        onError: (error) => applyFieldErrors(form, error, { localize }),
      },
    ),
  );

  const linkDead = !token || reset.error?.message === LINK_INVALID;
  return (
    <AuthLayout title={<FormattedMessage id="reset.title" />} subtitle={<FormattedMessage id="reset.subtitle" />}>
      {linkDead ? (
        <Stack gap="md">
          <ErrorAlert>
            <FormattedMessage id="reset.invalid" />
          </ErrorAlert>
          <Button component={Link} to={paths.forgotPassword} fullWidth>
            <FormattedMessage id="reset.requestNew" />
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <FormError form={form} error={reset.error} />
            <NewPasswordFields form={form} kind="new" />
            <Button type="submit" fullWidth loading={reset.isPending}>
              <FormattedMessage id="reset.submit" />
            </Button>
            <BackToLogin to={paths.login} />
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
