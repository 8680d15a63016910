import { Code, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { IntlShape } from 'react-intl';
import type { DistributionFileDto } from '../../../api/generated/model';

/** Delete file: 'Are you sure you want to delete this file? This action cannot be undone.' (admin spec section 5). */
export function confirmDeleteFile(intl: IntlShape, file: DistributionFileDto, onConfirm: () => void) {
  modals.openConfirmModal({
    title: intl.formatMessage({ id: 'admin.files.delete.title' }),
    closeButtonProps: { 'aria-label': intl.formatMessage({ id: 'common.close' }) },
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
    labels: {
      confirm: intl.formatMessage({ id: 'admin.files.delete.confirm' }),
      cancel: intl.formatMessage({ id: 'common.cancel' }),
    },
    confirmProps: { color: 'red.9' },
    onConfirm,
  });
}
