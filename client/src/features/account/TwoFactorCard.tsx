import { Badge, Button, Card, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { FormEvent, useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import {
  getGetMfaStatusQueryKey,
  useDisableMfa,
  useEnableMfa,
  useGetMfaStatus,
  useRegenerateRecoveryCodes,
  useStartMfaSetup,
} from '../../api/generated/endpoints/mfa/mfa';
import type { SecondFactorDto } from '../../api/generated/model';
import { ApiError } from '../../api/http-client';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { MfaSetupPanel } from '../../components/mfa/MfaSetupPanel';
import { RecoveryCodesPanel } from '../../components/mfa/RecoveryCodesPanel';
import { SuccessAlert } from '../../components/SuccessAlert';
import { localizeServerMessage } from '../../lib/server-messages';
import type { MessageId } from '../../i18n/message-id';
import { MessageText, MessageTitle } from '../../components/Message';
import { CurrentPasswordInput } from '../../components/PasswordInput';

/** Six digits are a code from the app; anything else is taken for a recovery code. */
const secondFactor = (entered: string): SecondFactorDto => {
  const compact = entered.replace(/\s/g, '');
  return /^\d{6}$/.test(compact) ? { code: compact } : { recovery_code: entered.trim() };
};

/** The admin's own two-factor sign-in: set it up, renew the recovery codes, or turn it off. */
export function TwoFactorCard() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const status = useGetMfaStatus();
  const setup = useStartMfaSetup();
  const enable = useEnableMfa();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [notice, setNotice] = useState<'turnedOn' | 'turnedOff' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getGetMfaStatusQueryKey() });
  const localize = (message: string) => localizeServerMessage(intl, message);
  const state = status.data?.data;

  return (
    <Card withBorder radius="md" p="lg" data-testid="two-factor">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconShieldLock size={22} color="var(--mantine-color-violet-6)" aria-hidden />
            <MessageTitle order={2} fz="lg" message="mfa.title" />
          </Group>
          {state && (
            <Badge color={state.enabled ? 'teal' : 'gray'} variant="light" data-testid="mfa-state">
              <FormattedMessage id={state.enabled ? 'mfa.card.on' : 'mfa.card.off'} />
            </Badge>
          )}
        </Group>
        {notice && (
          <SuccessAlert onClose={() => setNotice(null)}>
            <FormattedMessage id={notice === 'turnedOn' ? 'mfa.card.turnedOn' : 'mfa.card.turnedOff'} />
          </SuccessAlert>
        )}
        {status.isLoading && <Loader size="sm" />}
        {status.error && <ErrorAlert onRetry={() => status.refetch()}>{localize(status.error.message)}</ErrorAlert>}
        {state?.required && <MessageText fz="sm" c="dimmed" message="mfa.card.required" />}

        {codes ? (
          <RecoveryCodesPanel
            codes={codes}
            onDone={() => {
              setCodes(null);
              setDialog(null);
            }}
          />
        ) : state?.enabled ? (
          <>
            <Text fz="sm">
              {state.enabled_at && (
                <FormattedMessage id="mfa.card.onSince" values={{ date: <FormattedDate value={state.enabled_at} dateStyle="medium" /> }} />
              )}{' '}
              · <FormattedMessage id="mfa.card.codesLeft" values={{ count: state.recovery_codes_left }} />
            </Text>
            <Group gap="xs">
              <Button variant="light" size="sm" onClick={() => setDialog('renew')}>
                <FormattedMessage id="mfa.card.renewCodes" />
              </Button>
              <Button variant="light" color="red" size="sm" onClick={() => setDialog('disable')}>
                <FormattedMessage id="mfa.card.turnOff" />
              </Button>
            </Group>
          </>
        ) : setup.data ? (
          <MfaSetupPanel
            setup={setup.data.data}
            pending={enable.isPending}
            error={enable.error ? localize(enable.error.message) : null}
            onConfirm={(code) =>
              enable.mutate(
                { data: { code } },
                {
                  onSuccess: ({ data }) => {
                    setup.reset();
                    setCodes(data.recovery_codes);
                    setNotice('turnedOn');
                    void refresh();
                  },
                },
              )
            }
          />
        ) : (
          state && (
            <>
              <MessageText fz="sm" message="mfa.card.offText" />
              <Button style={{ alignSelf: 'flex-start' }} onClick={() => setDialog('setup')}>
                <FormattedMessage id="mfa.card.setUp" />
              </Button>
            </>
          )
        )}
      </Stack>

      <SecondFactorDialog
        kind={dialog}
        setup={setup}
        onClose={() => setDialog(null)}
        onRenewed={(renewed) => {
          setDialog(null);
          setCodes(renewed);
          void refresh();
        }}
        onDisabled={() => {
          setDialog(null);
          setNotice('turnedOff');
          void refresh();
        }}
      />
    </Card>
  );
}

type DialogKind = 'setup' | 'renew' | 'disable';
/** What each dialog asks for, its title and its text. */
const DIALOGS: Record<DialogKind, { password: boolean; factor: boolean; title: MessageId; text: MessageId }> = {
  setup: { password: true, factor: false, title: 'mfa.card.setUp', text: 'mfa.card.setUpText' },
  renew: { password: false, factor: true, title: 'mfa.card.renewCodes', text: 'mfa.card.renewText' },
  disable: { password: true, factor: true, title: 'mfa.card.turnOff', text: 'mfa.card.turnOffText' },
};

/**
 * Asks for what setting up an authenticator (the password), renewing the codes (a second factor) or turning it off
 * (both) takes. The set-up's answer (the new secret) belongs to the card, which shows it once the dialog closes.
 */
function SecondFactorDialog({
  kind,
  setup,
  onClose,
  onRenewed,
  onDisabled,
}: {
  kind: DialogKind | null;
  setup: ReturnType<typeof useStartMfaSetup<ApiError>>;
  onClose: () => void;
  onRenewed: (codes: string[]) => void;
  onDisabled: () => void;
}) {
  const intl = useIntl();
  const renew = useRegenerateRecoveryCodes();
  const disable = useDisableMfa();
  const [password, setPassword] = useState('');
  const [factor, setFactor] = useState('');
  const asks = DIALOGS[kind ?? 'renew'];
  const pending = renew.isPending || disable.isPending || setup.isPending;
  const failure = kind === 'renew' ? renew.error : kind === 'setup' ? setup.error : disable.error;
  const fieldErrors = failure instanceof ApiError ? failure.fieldErrors : {};
  const localize = (message: string) => localizeServerMessage(intl, message);

  const close = () => {
    setPassword('');
    setFactor('');
    renew.reset();
    disable.reset();
    if (kind === 'setup') setup.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const proof = secondFactor(factor);
    const done = () => {
      setFactor('');
      setPassword('');
    };
    if (kind === 'setup')
      setup.mutate(
        { data: { password } },
        {
          onSuccess: () => {
            done();
            onClose();
          },
        },
      );
    else if (kind === 'renew')
      renew.mutate(
        { data: proof },
        {
          onSuccess: ({ data }) => {
            done();
            onRenewed(data.recovery_codes);
          },
        },
      );
    else
      disable.mutate(
        { data: { ...proof, password } },
        {
          onSuccess: () => {
            done();
            onDisabled();
          },
        },
      );
  };

  return (
    <Modal
      opened={kind !== null}
      onClose={close}
      title={intl.formatMessage({ id: asks.title })}
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <MessageText fz="sm" message={asks.text} />
          {failure && !Object.keys(fieldErrors).length && <ErrorAlert>{localize(failure.message)}</ErrorAlert>}
          {asks.password && (
            <CurrentPasswordInput
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={fieldErrors.password?.map(localize).join(', ')}
            />
          )}
          {asks.factor && (
            <TextInput
              label={intl.formatMessage({ id: 'fields.codeOrRecovery' })}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={factor}
              onChange={(event) => setFactor(event.currentTarget.value)}
              error={[...(fieldErrors.code ?? []), ...(fieldErrors.recovery_code ?? [])].map(localize).join(', ') || undefined}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button
              type="submit"
              color={kind === 'disable' ? 'red' : undefined}
              loading={pending}
              disabled={(asks.factor && !factor.trim()) || (asks.password && !password)}
            >
              <FormattedMessage id={asks.title} />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
