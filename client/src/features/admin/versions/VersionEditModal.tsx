import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useUpdateVersion } from '../../../api/generated/endpoints/versions/versions';
import type { AdminVersionDto, UpdateVersionDto } from '../../../api/generated/model';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { orNull } from './version-display';
import { VERSION_FIELD_NAMES, VersionFields, VersionFormValues, versionFieldRules } from './version-form';
import { applyFieldErrors } from '../../../lib/field-errors';

interface VersionEditModalProps {
  version: AdminVersionDto;
  onClose: () => void;
  onSaved: (version: AdminVersionDto) => void;
}

const valuesOf = (version: AdminVersionDto): VersionFormValues => ({
  version: version.version,
  release_date: version.release_date,
  changelog: version.changelog ?? '',
  download_url: version.download_url ?? '',
  secret_hash: version.secret_hash ?? '',
  encryption_key: version.encryption_key ?? '',
  min_system_requirements: version.min_system_requirements ?? '',
  is_stable: version.is_stable,
  is_latest: version.is_latest,
  sync: version.license_server_sync,
});

/** Edit version: every field of the upload form but the file; version and release date stay required. */
export function VersionEditModal({ version, onClose, onSaved }: VersionEditModalProps) {
  const intl = useIntl();
  const update = useUpdateVersion();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<VersionFormValues>({ initialValues: valuesOf(version), validate: versionFieldRules(intl) });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const data: UpdateVersionDto = {
      version: values.version.trim(),
      release_date: values.release_date,
      changelog: orNull(values.changelog),
      download_url: orNull(values.download_url),
      secret_hash: orNull(values.secret_hash),
      encryption_key: orNull(values.encryption_key),
      min_system_requirements: orNull(values.min_system_requirements),
      is_stable: values.is_stable,
      license_server_sync: values.sync,
      // Only ever sent to mark this version latest; un-marking the latest is not a thing (the server refuses it).
      ...(values.is_latest && !version.is_latest ? { is_latest: true } : {}),
    };
    try {
      const response = await update.mutateAsync({ id: version.id, data });
      onSaved(response.data);
    } catch (error) {
      applyFieldErrors(form, error, { fields: VERSION_FIELD_NAMES });
      setFailure(intl.formatMessage({ id: 'admin.versions.errors.update' }, { message: (error as Error).message }));
    }
  });

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
      title={
        <Title order={2} fz="lg">
          {intl.formatMessage({ id: 'admin.versions.edit.title' }, { version: version.version })}
        </Title>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <VersionFields form={form} latestLocked={version.is_latest} />
          {version.sync_status === 'synced' && (
            <Text fz="xs" c="dimmed">
              <FormattedMessage id="admin.versions.edit.resync" />
            </Text>
          )}
          {/* Next to the buttons: the form is long, and the answer belongs where the user clicked. */}
          {failure && <ErrorAlert onClose={() => setFailure(null)}>{failure}</ErrorAlert>}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button type="submit" loading={update.isPending}>
              <FormattedMessage id="admin.versions.edit.submit" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
