import { Badge, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconRotateClockwise, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import {
  getListSigningKeysQueryKey,
  useListSigningKeys,
  useRemoveSigningKey,
  useRotateSigningKey,
} from '../../../api/generated/endpoints/signing-keys/signing-keys';
import { ActionFeedbackAlerts } from '../../../components/admin-list/use-action-feedback';
import { useAdminActions } from '../../../components/admin-list/use-admin-actions';
import { confirmAction, ConfirmText } from '../../../components/confirm-action';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { MessageText } from '../../../components/Message';
import { localizeServerMessage } from '../../../lib/server-messages';
import { signingKeyRows } from './signing-keys-display';

const STATUS = { current: 'admin.settings.signingKeys.current', previous: 'admin.settings.signingKeys.previous' } as const;

const When = ({ value }: { value: string }) => (
  <>
    <FormattedDate value={value} dateStyle="medium" /> <FormattedTime value={value} />
  </>
);

/**
 * The keys that sign license files, activation answers and release manifests: the current one and the previous ones
 * that still verify. Rotating (after a confirmation) makes a new key sign from now on; removing a previous key
 * (after a confirmation) makes what it signed fail to verify. The current key has no Remove button: the server refuses it too.
 */
export function SigningKeysSection() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const keys = useListSigningKeys();
  const actions = useAdminActions({ refresh: () => queryClient.invalidateQueries({ queryKey: getListSigningKeysQueryKey() }) });
  const rotate = useRotateSigningKey(
    actions.mutation({
      success: ({ data }) => intl.formatMessage({ id: 'admin.settings.signingKeys.rotated' }, { kid: data.kid }),
      failure: 'admin.settings.signingKeys.rotateFailed',
    }),
  );
  const remove = useRemoveSigningKey(
    actions.mutation({
      success: (_answer, { kid }) => intl.formatMessage({ id: 'admin.settings.signingKeys.removed' }, { kid }),
      failure: 'admin.settings.signingKeys.removeFailed',
    }),
  );
  const busy = rotate.isPending || remove.isPending;

  const confirmRotate = () =>
    confirmAction(intl, {
      title: 'admin.settings.signingKeys.rotate.title',
      children: <MessageText fz="sm" message="admin.settings.signingKeys.rotate.question" data-testid="rotate-key-confirm" />,
      confirm: 'admin.settings.signingKeys.rotate.confirm',
      onConfirm: () => rotate.mutate(),
      destructive: false,
    });
  const confirmRemove = (kid: string) =>
    confirmAction(intl, {
      title: 'admin.settings.signingKeys.remove.title',
      children: (
        <ConfirmText question="admin.settings.signingKeys.remove.question" name={kid} testId="remove-key-confirm">
          <MessageText fz="sm" message="admin.settings.signingKeys.remove.warning" />
        </ConfirmText>
      ),
      confirm: 'admin.settings.signingKeys.remove.confirm',
      onConfirm: () => remove.mutate({ kid }),
    });

  const rows = signingKeyRows(keys.data?.data ?? []);
  return (
    <Card withBorder radius="md" p="md" data-testid="signing-keys">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={3} fz="md">
              <FormattedMessage id="admin.settings.signingKeys.title" />
            </Title>
            <MessageText fz="sm" c="dimmed" message="admin.settings.signingKeys.description" />
          </div>
          <Button
            variant="default"
            leftSection={<IconRotateClockwise size={16} />}
            loading={rotate.isPending}
            disabled={busy || !keys.data}
            onClick={confirmRotate}
          >
            <FormattedMessage id="admin.settings.signingKeys.rotate" />
          </Button>
        </Group>
        <ActionFeedbackAlerts feedback={actions.feedback} />
        {keys.isPending && <Loader size="sm" aria-label={intl.formatMessage({ id: 'admin.settings.signingKeys.loading' })} />}
        {keys.error && (
          <ErrorAlert title={<FormattedMessage id="admin.settings.signingKeys.loadFailed" />} onRetry={() => void keys.refetch()}>
            {localizeServerMessage(intl, keys.error.message)}
          </ErrorAlert>
        )}
        {rows.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" fz="sm" data-testid="signing-keys-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <FormattedMessage id="admin.settings.signingKeys.kid" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="admin.settings.signingKeys.status" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="admin.settings.signingKeys.created" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="admin.settings.signingKeys.retired" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="admin.settings.signingKeys.actions" />
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.kid} data-testid={`signing-key-${row.kid}`}>
                    <Table.Td>
                      <Code>{row.kid}</Code>
                    </Table.Td>
                    <Table.Td>
                      {/* Filled and dark enough for AA contrast on both badges. */}
                      {/* Never cut: the table scrolls instead ("Signiert jetzt" was cut at 390 px). */}
                      <Badge
                        color={row.status === 'current' ? 'green.9' : 'gray.7'}
                        variant="filled"
                        styles={{ root: { maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible' } }}
                      >
                        <FormattedMessage id={STATUS[row.status]} />
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <When value={row.createdAt} />
                    </Table.Td>
                    <Table.Td>
                      {row.retiredAt ? (
                        <When value={row.retiredAt} />
                      ) : (
                        <Text span c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {row.removable && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red.9"
                          leftSection={<IconTrash size={14} />}
                          disabled={busy}
                          onClick={() => confirmRemove(row.kid)}
                          aria-label={intl.formatMessage({ id: 'admin.settings.signingKeys.removeKey' }, { kid: row.kid })}
                        >
                          <FormattedMessage id="admin.settings.signingKeys.remove" />
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}
