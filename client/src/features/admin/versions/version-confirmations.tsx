import { Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { AdminVersionDto } from '../../../api/generated/model';
import { confirmAction, ConfirmText, confirmDelete } from '../../../components/confirm-action';

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

/** Yank: the version leaves the customers' catalog; links already given keep working for a day. */
export function confirmYankVersion(intl: IntlShape, version: AdminVersionDto, onConfirm: () => void) {
  confirmAction(intl, {
    title: 'admin.versions.yank.title',
    children: (
      <ConfirmText question="admin.versions.yank.question" name={version.version} testId="version-yank-confirmation">
        <Text fz="sm" c="dimmed">
          {intl.formatMessage({ id: 'admin.versions.yank.links' })}
        </Text>
      </ConfirmText>
    ),
    confirm: 'admin.versions.yank.confirm',
    onConfirm,
  });
}
