import { Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import { useEndOtherSessions, useEndSession, useListSessions } from '../../api/generated/endpoints/account/account';
import type { SessionDto } from '../../api/generated/model';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SuccessAlert } from '../../components/SuccessAlert';
import { localizeServerMessage } from '../../lib/server-messages';
import { Section } from './ProfileCards';
import { describeUserAgent } from './session-display';
import { MessageText } from '../../components/Message';

function When({ value }: { value: string }) {
  return (
    <>
      <FormattedDate value={value} dateStyle="medium" /> <FormattedTime value={value} />
    </>
  );
}

/** 'Where you are signed in': each live session, this one marked; sign out one, or every other. */
export function SessionsCard() {
  const intl = useIntl();
  const sessions = useListSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [notice, setNotice] = useState<
    { id: 'account.sessions.signedOut' } | { id: 'account.sessions.signedOutOthers'; count: number } | null
  >(null);
  const refresh = () => sessions.refetch();
  const failure = endOne.error ?? endOthers.error;
  const list = sessions.data?.data ?? [];
  const others = list.filter((session) => !session.current).length;

  const deviceOf = (session: SessionDto) => {
    const described = describeUserAgent(session.user_agent);
    return described
      ? intl.formatMessage({ id: 'account.sessions.device' }, described)
      : intl.formatMessage({ id: 'account.sessions.unknownDevice' });
  };

  return (
    <Section title={<FormattedMessage id="account.sessions.title" />} testId="sessions">
      {notice && (
        <SuccessAlert onClose={() => setNotice(null)}>
          {notice.id === 'account.sessions.signedOut' ? (
            <FormattedMessage id={notice.id} />
          ) : (
            <FormattedMessage id={notice.id} values={{ count: notice.count }} />
          )}
        </SuccessAlert>
      )}
      {failure && <ErrorAlert>{localizeServerMessage(intl, failure.message)}</ErrorAlert>}
      {sessions.isLoading && <Loader size="sm" />}
      {sessions.error && <ErrorAlert onRetry={() => sessions.refetch()}>{localizeServerMessage(intl, sessions.error.message)}</ErrorAlert>}
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {list.map((session) => (
          <Paper key={session.id} component="li" withBorder p="sm" radius="md" data-testid="session">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <IconDeviceDesktop size={22} aria-hidden style={{ flexShrink: 0 }} />
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600} fz="sm">
                      {deviceOf(session)}
                    </Text>
                    {session.current && (
                      <Badge color="teal" variant="light" size="sm">
                        <FormattedMessage id="account.sessions.this" />
                      </Badge>
                    )}
                  </Group>
                  <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    <FormattedMessage
                      id="account.sessions.details"
                      values={{
                        created: <When value={session.created_at} />,
                        used: <When value={session.last_used_at ?? session.created_at} />,
                        ip: session.ip ?? intl.formatMessage({ id: 'account.sessions.unknownIp' }),
                      }}
                    />
                  </Text>
                </Stack>
              </Group>
              {!session.current && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  aria-label={intl.formatMessage({ id: 'account.sessions.signOutLabel' }, { device: deviceOf(session) })}
                  loading={endOne.isPending && endOne.variables?.id === session.id}
                  onClick={() =>
                    endOne.mutate(
                      { id: session.id },
                      {
                        onSuccess: () => {
                          setNotice({ id: 'account.sessions.signedOut' });
                          void refresh();
                        },
                      },
                    )
                  }
                >
                  <FormattedMessage id="account.sessions.signOut" />
                </Button>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      {sessions.isSuccess &&
        (others > 0 ? (
          <Button
            variant="light"
            color="red"
            style={{ alignSelf: 'flex-start' }}
            loading={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: ({ data }) => {
                  setNotice({ id: 'account.sessions.signedOutOthers', count: data.ended });
                  void refresh();
                },
              })
            }
          >
            <FormattedMessage id="account.sessions.signOutOthers" />
          </Button>
        ) : (
          <MessageText fz="sm" c="dimmed" message="account.sessions.onlyThis" />
        ))}
    </Section>
  );
}
