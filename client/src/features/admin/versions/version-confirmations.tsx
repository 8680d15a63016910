import { Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { AdminVersionDto } from '../../../api/generated/model';
import { confirmDelete } from '../../../components/confirm-action';

/** Delete version: 'Are you sure you want to delete this version?' (admin spec section 5), and what goes with it. */
export function confirmDeleteVersion(intl: IntlShape, version: AdminVersionDto, onConfirm: () => void) {
  const note = (id: 'admin.versions.delete.files' | 'admin.versions.delete.latest') => (
    <Text fz="sm" c="dimmed">
      {intl.formatMessage({ id })}
    </Text>
  );
  confirmDelete(intl, {
    area: 'versions',
    name: version.version,
    testId: 'version-confirmation',
    onConfirm,
    children: (
      <>
        {note('admin.versions.delete.files')}
        {version.is_latest && note('admin.versions.delete.latest')}
        <Text fz="sm" c="red.9" fw={600}>
          {intl.formatMessage({ id: 'admin.versions.delete.undone' })}
        </Text>
      </>
    ),
  });
}
