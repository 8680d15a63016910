import { SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useIntl } from 'react-intl';
import { useUpdateAdminLicense } from '../../../api/generated/endpoints/licenses/licenses';
import type { AdminLicenseDto, VersionChannel } from '../../../api/generated/model';
import { ChannelSelect } from '../../../components/ChannelSelect';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useField } from '../../../components/use-field';
import { useFormSubmit } from '../../../components/use-form-submit';

interface FormValues {
  channel: VersionChannel;
  /** YYYY-MM-DD, or empty: the expiry ends the updates. */
  updates_until: string;
}

/** A form field's props as useField gives them. */
type FieldProps = ReturnType<ReturnType<typeof useField>>;

/** The channel a license is granted and the end of its updates: Create License and Release access ask them alike. */
export function ReleaseAccessFields({ channel, updatesUntil }: { channel: FieldProps; updatesUntil: FieldProps }) {
  const intl = useIntl();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <ChannelSelect {...channel} />
      <TextInput type="date" description={intl.formatMessage({ id: 'adminLicenses.form.updatesUntilHint' })} {...updatesUntil} />
    </SimpleGrid>
  );
}

type LicenseAccessModalProps = DialogProps<'onSaved', AdminLicenseDto> & { license: AdminLicenseDto };

/** Release access of one license: the channel it is granted and the end of its updates (empty: its expiry). */
export function LicenseAccessModal({ license, onClose, onSaved }: LicenseAccessModalProps) {
  const update = useUpdateAdminLicense();
  const form = useForm<FormValues>({
    initialValues: { channel: license.channel, updates_until: license.updates_until?.slice(0, 10) ?? '' },
  });
  const field = useField(form);
  const submit = useFormSubmit(form, {
    failure: 'adminLicenses.errors.access',
    send: async (values) => {
      const response = await update.mutateAsync({
        id: license.id,
        data: { channel: values.channel, updates_until: values.updates_until || null },
      });
      onClose();
      onSaved(response.data);
    },
  });
  return (
    <FormModal
      onClose={onClose}
      title="adminLicenses.access.title"
      titleValues={{ key: license.license_key }}
      size="md"
      submit={submit}
      saving={update.isPending}
    >
      <ReleaseAccessFields
        channel={field('channel', 'adminLicenses.form.channel')}
        updatesUntil={field('updates_until', 'adminLicenses.form.updatesUntil')}
      />
    </FormModal>
  );
}
