import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { FormEvent, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAdminLoginMfa, useAdminLoginMfaEnable, useAdminLoginMfaSetup } from '../../api/generated/endpoints/auth/auth';
import type { AdminEnrolledSessionDto, AdminSessionDataDto, MfaChallengeDto } from '../../api/generated/model';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AuthLayout } from '../../components/layouts/AuthLayout';
import { MfaSetupPanel } from '../../components/mfa/MfaSetupPanel';
import { RecoveryCodesPanel } from '../../components/mfa/RecoveryCodesPanel';
import { localizeServerMessage } from '../../lib/server-messages';

/** The password step's token is spent or too old: the sign-in starts again from the password. */
const CHALLENGE_EXPIRED = 'Your sign-in has expired. Please log in again.';

interface StepProps {
  challenge: MfaChallengeDto;
  onSession: (data: AdminSessionDataDto) => void;
  onStartOver: (reason: string | null) => void;
}

function StartOver({ onStartOver }: Pick<StepProps, 'onStartOver'>) {
  return (
    <Anchor component="button" type="button" fz="sm" ta="center" onClick={() => onStartOver(null)}>
      <FormattedMessage id="mfa.startOver" />
    </Anchor>
  );
}

/** The second step of an admin sign-in: a code from the authenticator app, or a recovery code. */
export function MfaVerifyStep({ challenge, onSession, onStartOver }: StepProps) {
  const intl = useIntl();
  const verify = useAdminLoginMfa();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const entered = value.trim();
    verify.mutate(
      { data: { mfa_token: challenge.mfa_token, ...(useRecovery ? { recovery_code: entered } : { code: entered.replace(/\s/g, '') }) } },
      {
        onSuccess: ({ data }) => onSession(data),
        onError: (error) => {
          if (error.message === CHALLENGE_EXPIRED) onStartOver(error.message);
        },
      },
    );
  };

  return (
    <AuthLayout
      title={<FormattedMessage id="mfa.title" />}
      subtitle={<FormattedMessage id={useRecovery ? 'mfa.recovery.text' : 'mfa.verify.text'} />}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {verify.error && <ErrorAlert>{localizeServerMessage(intl, verify.error.message)}</ErrorAlert>}
          <TextInput
            key={useRecovery ? 'recovery' : 'code'}
            label={intl.formatMessage({ id: useRecovery ? 'fields.recoveryCode' : 'fields.mfaCode' })}
            inputMode={useRecovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            required
            data-autofocus
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
          <Button type="submit" fullWidth loading={verify.isPending} disabled={!value.trim()} leftSection={<IconShieldCheck size={16} />}>
            <FormattedMessage id="mfa.verify.submit" />
          </Button>
          <Anchor
            component="button"
            type="button"
            fz="sm"
            ta="center"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setValue('');
              verify.reset();
            }}
          >
            <FormattedMessage id={useRecovery ? 'mfa.useCode' : 'mfa.useRecovery'} />
          </Anchor>
          <StartOver onStartOver={onStartOver} />
        </Stack>
      </form>
    </AuthLayout>
  );
}

/** ADMIN_REQUIRE_MFA: an admin without an authenticator sets one up before the session begins, then keeps the recovery codes. */
export function MfaEnrolStep({ challenge, onSession, onStartOver }: StepProps) {
  const intl = useIntl();
  const setup = useAdminLoginMfaSetup();
  const enable = useAdminLoginMfaEnable();
  const [enrolled, setEnrolled] = useState<AdminEnrolledSessionDto | null>(null);
  const asked = useRef(false);

  useEffect(() => {
    // Once: each set-up makes a new secret.
    if (asked.current) return;
    asked.current = true;
    setup.mutate(
      { data: { mfa_token: challenge.mfa_token } },
      { onError: (error) => error.message === CHALLENGE_EXPIRED && onStartOver(error.message) },
    );
  }, [challenge, setup, onStartOver]);

  if (enrolled) {
    return (
      <AuthLayout title={<FormattedMessage id="mfa.enroll.title" />} width={520}>
        <RecoveryCodesPanel codes={enrolled.recovery_codes} onDone={() => onSession({ token: enrolled.token, admin: enrolled.admin })} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={<FormattedMessage id="mfa.enroll.title" />} subtitle={<FormattedMessage id="mfa.enroll.required" />} width={520}>
      <Stack gap="md">
        {setup.error && <ErrorAlert>{localizeServerMessage(intl, setup.error.message)}</ErrorAlert>}
        {setup.data && (
          <MfaSetupPanel
            setup={setup.data.data}
            pending={enable.isPending}
            error={enable.error ? localizeServerMessage(intl, enable.error.message) : null}
            onConfirm={(code) =>
              enable.mutate(
                { data: { mfa_token: challenge.mfa_token, code } },
                {
                  onSuccess: ({ data }) => setEnrolled(data),
                  onError: (error) => error.message === CHALLENGE_EXPIRED && onStartOver(error.message),
                },
              )
            }
          />
        )}
        {!setup.data && !setup.error && (
          <Text c="dimmed" ta="center" role="status">
            <FormattedMessage id="mfa.enroll.title" />…
          </Text>
        )}
        <StartOver onStartOver={onStartOver} />
      </Stack>
    </AuthLayout>
  );
}
