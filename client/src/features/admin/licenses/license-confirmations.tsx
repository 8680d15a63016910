import { Code, List, Stack, Text } from '@mantine/core';
import type { IntlShape } from 'react-intl';
import type { AdminLicenseDto } from '../../../api/generated/model';
import { confirmAction } from '../../../components/confirm-action';
import type { MessageId } from '../../../i18n/message-id';

interface ConfirmationProps {
  intl: IntlShape;
  license: AdminLicenseDto;
  question: MessageId;
  consequences: MessageId[];
  warning?: MessageId;
}

function Confirmation({ intl, license, question, consequences, warning }: ConfirmationProps) {
  const values = { count: license.current_activations };
  return (
    <Stack gap="sm" data-testid="license-confirmation">
      <Text fz="sm">{intl.formatMessage({ id: question })}</Text>
      <Code block>{license.license_key}</Code>
      <Text fz="sm" c="dimmed">
        {license.product_name} · {license.user_email}
      </Text>
      <Text fz="sm" fw={600}>
        {intl.formatMessage({ id: 'adminLicenses.confirm.consequences' })}
      </Text>
      <List size="sm" spacing={4}>
        {consequences.map((id) => (
          <List.Item key={id}>{intl.formatMessage({ id }, values)}</List.Item>
        ))}
      </List>
      {warning && (
        <Text fz="sm" c="red.8" fw={600}>
          {intl.formatMessage({ id: warning })}
        </Text>
      )}
    </Stack>
  );
}

/** Delete: permanent removal, revocation on the license server, installations deactivated, access lost (admin spec section 5). */
export function confirmDeleteLicense(intl: IntlShape, license: AdminLicenseDto, onConfirm: () => void) {
  confirmAction(intl, {
    title: 'adminLicenses.delete.title',
    children: (
      <Confirmation
        intl={intl}
        license={license}
        question="adminLicenses.delete.question"
        consequences={[
          'adminLicenses.delete.permanent',
          'adminLicenses.delete.serverRevocation',
          'adminLicenses.delete.installations',
          'adminLicenses.delete.access',
        ]}
        warning="adminLicenses.delete.undone"
      />
    ),
    confirm: 'adminLicenses.delete.confirm',
    onConfirm,
  });
}

/** Revoke: status revoked, installations deactivated, access lost, can be reactivated (admin spec section 5). */
export function confirmRevokeLicense(intl: IntlShape, license: AdminLicenseDto, onConfirm: () => void) {
  confirmAction(intl, {
    title: 'adminLicenses.revoke.title',
    children: (
      <Confirmation
        intl={intl}
        license={license}
        question="adminLicenses.revoke.question"
        consequences={[
          'adminLicenses.revoke.status',
          'adminLicenses.revoke.installations',
          'adminLicenses.revoke.access',
          'adminLicenses.revoke.reactivate',
        ]}
      />
    ),
    confirm: 'adminLicenses.revoke.confirm',
    onConfirm,
  });
}
