import { TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useIntl } from 'react-intl';
import { useRenameMyDevice } from '../../api/generated/endpoints/devices/devices';
import type { DeviceDto } from '../../api/generated/model';
import { DialogProps, FormModal } from '../../components/FormModal';
import { useField } from '../../components/use-field';
import { useFormSubmit } from '../../components/use-form-submit';

/** The longest name the server keeps (devices.custom_name). */
const NAME_MAX = 150;

type RenameDeviceModalProps = DialogProps<'onRenamed', DeviceDto> & { device: DeviceDto };

/** Rename: the owner's name for a server, kept whatever the server reports; empty names it after its server again. */
export function RenameDeviceModal({ device, onClose, onRenamed }: RenameDeviceModalProps) {
  const intl = useIntl();
  const rename = useRenameMyDevice();
  const form = useForm({
    initialValues: { name: device.custom_name ?? '' },
    validate: {
      name: (value) => (value.trim().length > NAME_MAX ? intl.formatMessage({ id: 'devices.rename.tooLong' }, { max: NAME_MAX }) : null),
    },
  });
  const field = useField(form);
  const submit = useFormSubmit(form, {
    failure: 'devices.errors.rename',
    send: async (values) => {
      const response = await rename.mutateAsync({ id: device.id, data: { name: values.name.trim() } });
      onClose();
      onRenamed(response.data);
    },
  });
  return (
    <FormModal onClose={onClose} title="devices.rename.title" size="md" submit={submit} saving={rename.isPending}>
      <TextInput
        data-autofocus
        description={intl.formatMessage({ id: 'devices.rename.hint' }, { name: device.device_name || device.hostname || '—' })}
        {...field('name', 'devices.rename.name')}
      />
    </FormModal>
  );
}
