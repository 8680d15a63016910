import { Box, Button, Code, CopyButton, Group, Image, Stack, TextInput } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MfaSetupDto } from '../../api/generated/model';
import { ErrorAlert } from '../ErrorAlert';
import { MessageText } from '../Message';

/**
 * Setting up an authenticator: the QR code and the key (shown this once), and the first code that turns two-factor
 * sign-in on. Used at the admin sign-in (when it is required) and on the profile page.
 */
export function MfaSetupPanel({
  setup,
  onConfirm,
  pending,
  error,
  intro,
}: {
  setup: MfaSetupDto;
  onConfirm: (code: string) => void;
  pending: boolean;
  error: string | null;
  intro?: ReactNode;
}) {
  const intl = useIntl();
  const [code, setCode] = useState('');
  // The key in groups of four, as authenticator apps show and people type it.
  const grouped = setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onConfirm(code.replace(/\s/g, ''));
      }}
      noValidate
    >
      <Stack gap="md">
        {intro}
        <MessageText fz="sm" message="mfa.setup.scan" />
        <Box bg="white" p="xs" style={{ alignSelf: 'center', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}>
          <Image src={setup.qr_code} alt={intl.formatMessage({ id: 'mfa.setup.qrAlt' })} w={192} h={192} data-testid="mfa-qr" />
        </Box>
        <MessageText fz="sm" c="dimmed" message="mfa.setup.secret" />
        <Group gap="xs" wrap="nowrap" align="center">
          <Code
            fz="sm"
            style={{ wordBreak: 'break-all', flex: 1 }}
            aria-label={intl.formatMessage({ id: 'mfa.setup.secretLabel' })}
            data-testid="mfa-secret"
          >
            {grouped}
          </Code>
          <CopyButton value={setup.secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                <FormattedMessage id={copied ? 'mfa.codes.copied' : 'common.copy'} />
              </Button>
            )}
          </CopyButton>
        </Group>
        {error && <ErrorAlert>{error}</ErrorAlert>}
        <TextInput
          label={intl.formatMessage({ id: 'fields.mfaCode' })}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          required
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" loading={pending} leftSection={<IconShieldCheck size={16} />} disabled={code.replace(/\s/g, '').length !== 6}>
          <FormattedMessage id="mfa.setup.submit" />
        </Button>
      </Stack>
    </form>
  );
}
