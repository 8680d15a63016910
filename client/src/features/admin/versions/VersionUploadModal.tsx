import { Divider, FileInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileZip, IconUpload } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import { useUploadVersion } from '../../../api/generated/endpoints/versions/versions';
import type { AdminVersionDto } from '../../../api/generated/model';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useFormSubmit } from '../../../components/use-form-submit';
import { formatAdminBytes } from '../../../i18n/format';
import { allowedExtension, useUploadRules, warnIfLargeUpload } from '../../../lib/upload-rules';
import { VERSION_EXTENSIONS } from './version-display';
import {
  EMPTY_VERSION_FORM,
  optionalFields,
  VERSION_FIELD_NAMES,
  VersionFields,
  VersionFormValues,
  versionFieldRules,
} from './version-form';
import { useField } from '../../../components/use-field';

interface UploadValues extends VersionFormValues {
  file: File | null;
}

/** Upload Version: the version's details and an optional package (.zip, .exe, .dmg, .pkg), sent as multipart. */
export function VersionUploadModal({ onClose, onUploaded }: DialogProps<'onUploaded', AdminVersionDto>) {
  const intl = useIntl();
  const upload = useUploadVersion();
  const { extensions, maxBytes } = useUploadRules('version_extensions', VERSION_EXTENSIONS, { staleTime: 60_000 });

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
  const field = useField(form);

  const submit = useFormSubmit(form, {
    failure: 'admin.versions.errors.upload',
    fields: VERSION_FIELD_NAMES,
    send: async (values) => {
      warnIfLargeUpload(values.file);
      const response = await upload.mutateAsync({
        data: {
          version: values.version.trim(),
          release_date: values.release_date,
          ...optionalFields(values),
          channel: values.channel,
          state: values.state,
          is_latest: values.is_latest,
          sync_to_license_server: values.sync,
          file: values.file ?? undefined,
        },
      });
      form.reset();
      onClose();
      onUploaded(response.data);
    },
  });

  return (
    <FormModal
      onClose={onClose}
      title="admin.versions.upload.title"
      submit={submit}
      submitIcon={<IconUpload size={16} />}
      saving={upload.isPending}
      failureAtEnd
    >
      <VersionFields form={form} />
      <Divider label={intl.formatMessage({ id: 'admin.versions.form.fileSection' })} labelPosition="left" />
      <FileInput
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
        {...field('file', 'admin.versions.form.file')}
      />
    </FormModal>
  );
}
