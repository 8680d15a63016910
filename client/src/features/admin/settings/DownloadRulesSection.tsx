import { Button, Card, Group, Loader, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { getGetAdminSettingsQueryKey, useGetAdminSettings, usePatchAdminSetting } from '../../../api/generated/endpoints/settings/settings';
import { ActionFeedbackAlerts } from '../../../components/admin-list/use-action-feedback';
import { useAdminActions } from '../../../components/admin-list/use-admin-actions';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { MessageText } from '../../../components/Message';
import { localizeServerMessage } from '../../../lib/server-messages';

/**
 * Who may download releases: off (the default), every verified customer downloads published stable builds to try
 * them and other channels follow their licenses; on, every customer download needs a license covering the release.
 * Admins' own downloads are never restricted. And the oldest release servers may run (validate's update_required).
 */
export function DownloadRulesSection() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const settings = useGetAdminSettings();
  const actions = useAdminActions({ refresh: () => queryClient.invalidateQueries({ queryKey: getGetAdminSettingsQueryKey() }) });
  const patch = usePatchAdminSetting(
    actions.mutation({
      success: (_answer, { data }) =>
        intl.formatMessage({ id: data.value ? 'admin.settings.downloads.required' : 'admin.settings.downloads.open' }),
      failure: 'admin.settings.downloads.saveFailed',
    }),
  );
  const saveMinimum = usePatchAdminSetting(
    actions.mutation({
      success: (_answer, { data }) =>
        data.value
          ? intl.formatMessage({ id: 'admin.settings.downloads.minimumSaved' }, { version: String(data.value) })
          : intl.formatMessage({ id: 'admin.settings.downloads.minimumCleared' }),
      failure: 'admin.settings.downloads.saveFailed',
    }),
  );
  const stored = settings.data?.data.app_info.min_supported_version ?? '';
  // What the admin typed, until it is saved (null: the stored value is shown).
  const [typed, setTyped] = useState<string | null>(null);
  const minimum = typed ?? stored;
  const required = patch.isPending
    ? Boolean(patch.variables?.data.value)
    : (settings.data?.data.features.downloads_require_license ?? false);

  return (
    <Card withBorder radius="md" p="md" data-testid="download-rules">
      <Stack gap="sm">
        <div>
          <Title order={3} fz="md">
            <FormattedMessage id="admin.settings.downloads.title" />
          </Title>
          <MessageText fz="sm" c="dimmed" message="admin.settings.downloads.description" />
        </div>
        <ActionFeedbackAlerts feedback={actions.feedback} />
        {settings.isPending && <Loader size="sm" aria-label={intl.formatMessage({ id: 'admin.settings.downloads.loading' })} />}
        {settings.error && (
          <ErrorAlert title={<FormattedMessage id="admin.settings.downloads.loadFailed" />} onRetry={() => void settings.refetch()}>
            {localizeServerMessage(intl, settings.error.message)}
          </ErrorAlert>
        )}
        {settings.data && (
          <Switch
            checked={required}
            disabled={patch.isPending}
            label={intl.formatMessage({ id: 'admin.settings.downloads.requireLicense' })}
            description={intl.formatMessage({ id: 'admin.settings.downloads.requireLicenseHint' })}
            onChange={(event) => patch.mutate({ data: { key: 'features.downloads_require_license', value: event.currentTarget.checked } })}
            data-testid="require-license"
          />
        )}
        {settings.data && (
          <Group align="flex-end" gap="sm">
            <TextInput
              label={intl.formatMessage({ id: 'admin.settings.downloads.minimum' })}
              description={intl.formatMessage({ id: 'admin.settings.downloads.minimumHint' })}
              placeholder="4.2.0"
              value={minimum}
              onChange={(event) => setTyped(event.currentTarget.value)}
              w={{ base: '100%', xs: 320 }}
            />
            <Button
              variant="default"
              loading={saveMinimum.isPending}
              disabled={minimum.trim() === stored}
              onClick={() =>
                saveMinimum.mutate(
                  { data: { key: 'app_info.min_supported_version', value: minimum.trim() } },
                  { onSuccess: () => setTyped(null) },
                )
              }
            >
              <FormattedMessage id="admin.settings.downloads.minimumSave" />
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
