import { Code, Stack, Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { DistributionFileDto } from '../../../api/generated/model';
import { confirmAction } from '../../../components/confirm-action';

/** Delete file: 'Are you sure you want to delete this file? This action cannot be undone.' (admin spec section 5). */
export function confirmDeleteFile(intl: IntlShape, file: DistributionFileDto, onConfirm: () => void) {
  confirmAction(intl, {
    title: 'admin.files.delete.title',
    children: (
      <Stack gap="sm" data-testid="file-delete-confirmation">
        <Text fz="sm">{intl.formatMessage({ id: 'admin.files.delete.question' })}</Text>
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {file.file_name}
        </Code>
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
      </Stack>
    ),
    confirm: 'admin.files.delete.confirm',
    onConfirm,
  });
}
