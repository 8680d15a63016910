import { Anchor, Group, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { Link, useSearchParams } from 'react-router';
import type { MessageId } from '../../i18n/message-id';
import { paths } from '../../lib/paths';

/** Under the sign-in and registration forms: the way to the other one ('No account? Register here'), and Back to Home. */
export function OtherDoor({ question, link, to }: { question: MessageId; link: MessageId; to: string }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text fz="sm">
        <FormattedMessage id={question} />{' '}
        <Anchor component={Link} to={to} fw={600} fz="sm">
          <FormattedMessage id={link} />
        </Anchor>
      </Text>
      <Anchor component={Link} to={paths.home} fz="sm">
        <FormattedMessage id="common.backHome" />
      </Anchor>
    </Group>
  );
}

/** 'Back to Login', under a form on the way to signing in again. */
export function BackToLogin({ to }: { to: string }) {
  return (
    <Text ta="center" fz="sm">
      <Anchor component={Link} to={to} fz="sm">
        <FormattedMessage id="forgot.backToLogin" />
      </Anchor>
    </Text>
  );
}

/** The single-use token of a mailed link (`?token=…`), or '' when the link has none. */
export function useLinkToken(): string {
  const [params] = useSearchParams();
  return params.get('token') ?? '';
}
