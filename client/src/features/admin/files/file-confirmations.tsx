import { Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { DistributionFileDto } from '../../../api/generated/model';
import { confirmDelete } from '../../../components/confirm-action';

/** Delete file: 'Are you sure you want to delete this file? This action cannot be undone.' (admin spec section 5). */
export function confirmDeleteFile(intl: IntlShape, file: DistributionFileDto, onConfirm: () => void) {
  const os = intl.formatMessage({ id: `admin.files.os.${file.os_type}` });
  confirmDelete(intl, {
    area: 'files',
    name: file.file_name,
    testId: 'file-delete-confirmation',
    onConfirm,
    children: (
      <Text fz="sm" c="dimmed">
        {intl.formatMessage({ id: 'admin.files.delete.details' }, { version: file.version, os, architecture: file.architecture })}
      </Text>
    ),
  });
}
