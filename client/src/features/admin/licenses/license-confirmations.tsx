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

/** What each confirmed action does (admin spec section 5), and for Delete that it cannot be undone. */
const ACTIONS = {
  delete: {
    consequences: [
      'adminLicenses.delete.permanent',
      'adminLicenses.delete.serverRevocation',
      'adminLicenses.delete.installations',
      'adminLicenses.delete.access',
    ],
    warning: 'adminLicenses.delete.undone',
  },
  revoke: {
    consequences: [
      'adminLicenses.revoke.status',
      'adminLicenses.revoke.installations',
      'adminLicenses.revoke.access',
      'adminLicenses.revoke.reactivate',
    ],
    warning: undefined,
  },
} as const;

/** Asks before deleting or revoking a license: the key, its product and owner, and what the action does. */
export function confirmLicenseAction(intl: IntlShape, action: keyof typeof ACTIONS, license: AdminLicenseDto, onConfirm: () => void) {
  const { consequences, warning } = ACTIONS[action];
  confirmAction(intl, {
    title: `adminLicenses.${action}.title`,
    children: (
      <Confirmation
        intl={intl}
        license={license}
        question={`adminLicenses.${action}.question`}
        consequences={[...consequences]}
        warning={warning}
      />
    ),
    confirm: `adminLicenses.${action}.confirm`,
    onConfirm,
  });
}
