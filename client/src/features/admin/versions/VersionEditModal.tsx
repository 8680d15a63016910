import { useForm } from '@mantine/form';
import { useIntl } from 'react-intl';
import { useUpdateVersion } from '../../../api/generated/endpoints/versions/versions';
import type { AdminVersionDto, UpdateVersionDto } from '../../../api/generated/model';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useFormSubmit } from '../../../components/use-form-submit';
import { optionalFields, VERSION_FIELD_NAMES, VersionFields, VersionFormValues, versionFieldRules } from './version-form';
import { MessageText } from '../../../components/Message';

type VersionEditModalProps = DialogProps<'onSaved', AdminVersionDto> & { version: AdminVersionDto };

const valuesOf = (version: AdminVersionDto): VersionFormValues => ({
  version: version.version,
  release_date: version.release_date,
  changelog: version.changelog ?? '',
  download_url: version.download_url ?? '',
  secret_hash: version.secret_hash ?? '',
  encryption_key: version.encryption_key ?? '',
  min_system_requirements: version.min_system_requirements ?? '',
  channel: version.channel,
  state: version.state,
  is_latest: version.is_latest,
  sync: version.license_server_sync,
});

/** Edit version: every field of the upload form but the file; version and release date stay required. */
export function VersionEditModal({ version, onClose, onSaved }: VersionEditModalProps) {
  const intl = useIntl();
  const update = useUpdateVersion();
  const form = useForm<VersionFormValues>({ initialValues: valuesOf(version), validate: versionFieldRules(intl) });
  const submit = useFormSubmit(form, {
    failure: 'admin.versions.errors.update',
    fields: VERSION_FIELD_NAMES,
    send: async (values) => {
      const data: UpdateVersionDto = {
        version: values.version.trim(),
        release_date: values.release_date,
        ...optionalFields(values),
        channel: values.channel,
        state: values.state,
        license_server_sync: values.sync,
        // Only ever sent to mark this version latest; un-marking the latest is not a thing (the server refuses it).
        ...(values.is_latest && !version.is_latest ? { is_latest: true } : {}),
      };
      const response = await update.mutateAsync({ id: version.id, data });
      onClose();
      onSaved(response.data);
    },
  });

  return (
    <FormModal
      onClose={onClose}
      title="admin.versions.edit.title"
      titleValues={{ version: version.version }}
      submit={submit}
      saving={update.isPending}
      failureAtEnd
    >
      <VersionFields form={form} latestLocked={version.is_latest} />
      {version.sync_status === 'synced' && <MessageText fz="xs" c="dimmed" message="admin.versions.edit.resync" />}
    </FormModal>
  );
}
