import { Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { DistributionFileDto } from '../../../api/generated/model';
import { confirmAction, ConfirmText } from '../../../components/confirm-action';

/** Delete file: 'Are you sure you want to delete this file? This action cannot be undone.' (admin spec section 5). */
export function confirmDeleteFile(intl: IntlShape, file: DistributionFileDto, onConfirm: () => void) {
  confirmAction(intl, {
    title: 'admin.files.delete.title',
    children: (
      <ConfirmText question="admin.files.delete.question" name={file.file_name} testId="file-delete-confirmation">
        <Text fz="sm" c="dimmed">
          {intl.formatMessage(
            { id: 'admin.files.delete.details' },
            {
              version: file.version,
              os: intl.formatMessage({ id: `admin.files.os.${file.os_type}` }),
              architecture: file.architecture,
            },
          )}
        </Text>
      </ConfirmText>
    ),
    confirm: 'admin.files.delete.confirm',
    onConfirm,
  });
}
