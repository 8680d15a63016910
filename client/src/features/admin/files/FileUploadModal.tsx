import { Alert, Anchor, FileInput, Progress, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFileUpload, IconInfoCircle } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import {
  useListDistributionFileVersions,
  useUploadDistributionFile,
} from '../../../api/generated/endpoints/distribution-files/distribution-files';
import type { Architecture, DistributionFileDto, OsType } from '../../../api/generated/model';
import type { ApiError } from '../../../api/http-client';
import { paths } from '../../../lib/paths';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useFormSubmit } from '../../../components/use-form-submit';
import { formatAdminBytes } from '../../../i18n/format';
import { allowedExtension, DISTRIBUTION_EXTENSIONS, useUploadRules, warnIfLargeUpload } from '../../../lib/upload-rules';
import { ARCHITECTURES, fileProblem, OS_TYPES, uploadFailure, uploadSucceeded, versionChoiceLabel } from './file-display';
import { useField } from '../../../components/use-field';
import { MessageText } from '../../../components/Message';

/** The spec's words for a refusal that is not the server's own message (admin spec section 8, Logs and files). */
const FAILURE_MESSAGE = {
  network: 'admin.files.errors.network',
  tooLarge: 'admin.files.errors.tooLarge',
  unsupported: 'admin.files.errors.unsupported',
} as const;

interface FormValues {
  version_id: string | null;
  os_type: OsType | null;
  architecture: Architecture | null;
  file: File | null;
  file_name: string;
}

/** Upload Distribution File: version, operating system, architecture, file and an optional custom name (admin spec section 2). */
export function FileUploadModal({ onClose, onUploaded }: DialogProps<'onUploaded', DistributionFileDto>) {
  const intl = useIntl();
  const versions = useListDistributionFileVersions();
  const upload = useUploadDistributionFile();
  // For the hint and an early check of the type and size.
  const { extensions, maxBytes } = useUploadRules('file_extensions', DISTRIBUTION_EXTENSIONS);

  const typeNotAllowed = () => intl.formatMessage({ id: 'admin.files.upload.fileType' }, { types: extensions.join(', ') });

  const form = useForm<FormValues>({
    initialValues: { version_id: null, os_type: null, architecture: null, file: null, file_name: '' },
    validate: {
      version_id: (value) => (value ? null : intl.formatMessage({ id: 'admin.files.upload.versionRequired' })),
      os_type: (value) => (value ? null : intl.formatMessage({ id: 'admin.files.upload.osRequired' })),
      architecture: (value) => (value ? null : intl.formatMessage({ id: 'admin.files.upload.architectureRequired' })),
      file: (value) => {
        const problem = fileProblem(value, maxBytes);
        if (problem === 'missing') return intl.formatMessage({ id: 'admin.files.upload.fileRequired' });
        // The server refuses by the original name's type even when a custom name is given (415).
        if (!allowedExtension(value!.name, extensions)) return typeNotAllowed();
        if (problem === 'tooLarge')
          return intl.formatMessage({ id: 'admin.files.upload.fileTooLarge' }, { size: formatAdminBytes(maxBytes ?? 0, intl.locale) });
        return null;
      },
      // ...and by the name the file is stored under.
      file_name: (value) => (value.trim() && !allowedExtension(value.trim(), extensions) ? typeNotAllowed() : null),
    },
  });
  const field = useField(form);

  const choices = versions.data?.data ?? [];
  const noVersions = versions.isSuccess && choices.length === 0;
  const busy = upload.isPending;

  const submit = useFormSubmit(form, {
    failure: (error) => {
      const reason = uploadFailure(error as ApiError);
      return reason.kind === 'server'
        ? intl.formatMessage({ id: 'admin.files.errors.upload' }, { message: reason.message })
        : intl.formatMessage({ id: FAILURE_MESSAGE[reason.kind] });
    },
    send: async (values) => {
      warnIfLargeUpload(values.file);
      const response = await upload.mutateAsync({
        data: {
          version_id: Number(values.version_id),
          os_type: values.os_type!,
          architecture: values.architecture!,
          file: values.file!,
          file_name: values.file_name.trim() || undefined,
        },
      });
      // An answer that does not say it worked is a failure too, in the server's words when it has any.
      if (!uploadSucceeded(response)) throw new Error(response?.message || intl.formatMessage({ id: 'admin.files.errors.noSuccess' }));
      onClose();
      onUploaded(response.data);
    },
  });

  const file = form.values.file;

  return (
    <FormModal
      onClose={onClose}
      size="lg"
      title="admin.files.upload.title"
      submit={submit}
      submitLabel="admin.files.upload.submit"
      submitIcon={<IconFileUpload size={16} />}
      saving={busy}
      locked={busy}
    >
      {versions.error && (
        <ErrorAlert onRetry={() => versions.refetch()}>
          {intl.formatMessage({ id: 'admin.files.errors.versions' }, { message: versions.error.message })}
        </ErrorAlert>
      )}
      {noVersions && (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} data-testid="files-no-versions">
          <MessageText fz="sm" message="admin.files.upload.noVersions" />
          <Anchor component={Link} to={paths.admin.versions} fz="sm">
            <FormattedMessage id="admin.files.upload.toVersions" />
          </Anchor>
        </Alert>
      )}

      <Select
        placeholder={intl.formatMessage({ id: 'admin.files.upload.versionPlaceholder' })}
        required
        searchable
        disabled={versions.isLoading || noVersions || busy}
        nothingFoundMessage={intl.formatMessage({ id: 'admin.files.upload.noVersions' })}
        data={choices.map((choice) => ({
          value: String(choice.id),
          label: intl.formatMessage(
            { id: 'admin.files.upload.versionOption' },
            {
              version: versionChoiceLabel(intl, choice),
              date: intl.formatDate(choice.release_date, { dateStyle: 'medium', timeZone: 'UTC' }),
            },
          ),
        }))}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        {...field('version_id', 'admin.files.upload.version')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          placeholder={intl.formatMessage({ id: 'admin.files.upload.osPlaceholder' })}
          required
          disabled={busy}
          data={OS_TYPES.map((value) => ({ value, label: intl.formatMessage({ id: `admin.files.os.${value}` }) }))}
          allowDeselect={false}
          {...field('os_type', 'admin.files.upload.os')}
        />
        <Select
          placeholder={intl.formatMessage({ id: 'admin.files.upload.architecturePlaceholder' })}
          required
          disabled={busy}
          data={ARCHITECTURES}
          allowDeselect={false}
          {...field('architecture', 'admin.files.upload.architecture')}
        />
      </SimpleGrid>
      <FileInput
        placeholder={intl.formatMessage({ id: 'admin.files.upload.filePlaceholder' })}
        description={intl.formatMessage(
          { id: maxBytes ? 'admin.files.upload.hintWithSize' : 'admin.files.upload.hint' },
          { types: extensions.join(', '), size: formatAdminBytes(maxBytes ?? 0, intl.locale) },
        )}
        required
        clearable
        disabled={busy}
        leftSection={<IconFileUpload size={16} aria-hidden />}
        clearButtonProps={{ 'aria-label': intl.formatMessage({ id: 'admin.files.upload.clearFile' }) }}
        fileInputProps={{ 'aria-label': intl.formatMessage({ id: 'admin.files.upload.file' }) }}
        {...field('file', 'admin.files.upload.file')}
      />
      {file && file.size > 0 && (
        <Text fz="xs" c="dimmed" mt={-8} data-testid="files-selected-size">
          <FormattedMessage id="admin.files.upload.selected" values={{ name: file.name, size: formatAdminBytes(file.size, intl.locale) }} />
        </Text>
      )}
      <TextInput
        description={intl.formatMessage({ id: 'admin.files.upload.fileNameHint' })}
        placeholder={file?.name}
        autoComplete="off"
        disabled={busy}
        maxLength={200}
        {...field('file_name', 'admin.files.upload.fileName')}
      />

      {busy && (
        <Stack gap={4} data-testid="files-uploading">
          <Text fz="sm">
            <FormattedMessage
              id="admin.files.upload.progress"
              values={{ name: form.values.file_name.trim() || file?.name || '', size: formatAdminBytes(file?.size ?? 0, intl.locale) }}
            />
          </Text>
          <Progress value={100} striped animated aria-label={intl.formatMessage({ id: 'admin.files.upload.progressLabel' })} />
        </Stack>
      )}
    </FormModal>
  );
}
