import { Button, Divider, FileInput, Group, Modal, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileZip, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useGetSupportedVersions, useUploadVersion } from '../../../api/generated/endpoints/versions/versions';
import type { AdminVersionDto } from '../../../api/generated/model';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { orNull, VERSION_EXTENSIONS } from './version-display';
import { formatAdminBytes } from '../../../i18n/format';
import { allowedExtension, warnIfLargeUpload } from '../../../lib/upload-rules';
import { EMPTY_VERSION_FORM, VERSION_FIELD_NAMES, VersionFields, VersionFormValues, versionFieldRules } from './version-form';
import { applyFieldErrors } from '../../../lib/field-errors';

interface UploadValues extends VersionFormValues {
  file: File | null;
}

interface VersionUploadModalProps {
  opened: boolean;
  onClose: () => void;
  onUploaded: (version: AdminVersionDto) => void;
}

/** Upload Version: the version's details and an optional package (.zip, .exe, .dmg, .pkg), sent as multipart. */
export function VersionUploadModal({ opened, onClose, onUploaded }: VersionUploadModalProps) {
  const intl = useIntl();
  const upload = useUploadVersion();
  // What the server takes (extensions, maximum size); the spec's list stands in until it has loaded.
  const supported = useGetSupportedVersions({ query: { enabled: opened, staleTime: 60_000 } });
  const extensions = supported.data?.data.version_extensions ?? [...VERSION_EXTENSIONS];
  const maxBytes = supported.data?.data.max_upload_bytes;
  const [failure, setFailure] = useState<string | null>(null);

  const form = useForm<UploadValues>({
    initialValues: { ...EMPTY_VERSION_FORM, file: null },
    validate: {
      ...versionFieldRules(intl),
      file: (file) => {
        if (!file) return null;
        if (!allowedExtension(file.name, extensions))
          return intl.formatMessage({ id: 'admin.versions.form.fileType' }, { types: extensions.join(', ') });
        if (file.size === 0) return intl.formatMessage({ id: 'admin.versions.form.fileEmpty' });
        if (maxBytes && file.size > maxBytes)
          return intl.formatMessage({ id: 'admin.versions.form.fileTooLarge' }, { max: formatAdminBytes(maxBytes, intl.locale) });
        return null;
      },
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    warnIfLargeUpload(values.file);
    try {
      const response = await upload.mutateAsync({
        data: {
          version: values.version.trim(),
          release_date: values.release_date,
          changelog: orNull(values.changelog),
          download_url: orNull(values.download_url),
          secret_hash: orNull(values.secret_hash),
          encryption_key: orNull(values.encryption_key),
          min_system_requirements: orNull(values.min_system_requirements),
          is_stable: values.is_stable,
          is_latest: values.is_latest,
          sync_to_license_server: values.sync,
          file: values.file ?? undefined,
        },
      });
      form.reset();
      onUploaded(response.data);
    } catch (error) {
      applyFieldErrors(form, error, { fields: VERSION_FIELD_NAMES });
      setFailure(intl.formatMessage({ id: 'admin.versions.errors.upload' }, { message: (error as Error).message }));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
      title={
        <Title order={2} fz="lg">
          {intl.formatMessage({ id: 'admin.versions.upload.title' })}
        </Title>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <VersionFields form={form} />
          <Divider label={intl.formatMessage({ id: 'admin.versions.form.fileSection' })} labelPosition="left" />
          <FileInput
            label={intl.formatMessage({ id: 'admin.versions.form.file' })}
            description={intl.formatMessage(
              { id: 'admin.versions.form.fileHint' },
              { types: extensions.join(', '), max: maxBytes ? formatAdminBytes(maxBytes, intl.locale) : '…' },
            )}
            placeholder={intl.formatMessage({ id: 'admin.versions.form.filePlaceholder' })}
            accept={extensions.join(',')}
            clearable
            // A real element (not ::placeholder), so it needs text contrast.
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            leftSection={<IconFileZip size={16} aria-hidden />}
            {...form.getInputProps('file')}
          />
          {/* Next to the buttons: the form is long, and the answer belongs where the user clicked. */}
          {failure && <ErrorAlert onClose={() => setFailure(null)}>{failure}</ErrorAlert>}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              <FormattedMessage id="common.cancel" />
            </Button>
            <Button type="submit" loading={upload.isPending} leftSection={<IconUpload size={16} />}>
              <FormattedMessage id="admin.versions.upload.submit" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
