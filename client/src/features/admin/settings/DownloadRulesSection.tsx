import { Card, Loader, Stack, Switch, Title } from '@mantine/core';
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
 * Admins' own downloads are never restricted.
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
      </Stack>
    </Card>
  );
}
