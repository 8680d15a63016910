import { Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { AdminVersionDto } from '../../../api/generated/model';
import { confirmAction, ConfirmText } from '../../../components/confirm-action';

/** Delete version: 'Are you sure you want to delete this version?' (admin spec section 5), and what goes with it. */
export function confirmDeleteVersion(intl: IntlShape, version: AdminVersionDto, onConfirm: () => void) {
  confirmAction(intl, {
    title: 'admin.versions.delete.title',
    children: (
      <ConfirmText question="admin.versions.delete.question" name={version.version} testId="version-confirmation">
        <Text fz="sm" c="dimmed">
          {intl.formatMessage({ id: 'admin.versions.delete.files' })}
        </Text>
        {version.is_latest && (
          <Text fz="sm" c="dimmed">
            {intl.formatMessage({ id: 'admin.versions.delete.latest' })}
          </Text>
        )}
        <Text fz="sm" c="red.9" fw={600}>
          {intl.formatMessage({ id: 'admin.versions.delete.undone' })}
        </Text>
      </ConfirmText>
    ),
    confirm: 'admin.versions.delete.confirm',
    onConfirm,
  });
}
