import { Alert, AlertProps } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { useIntl } from 'react-intl';

/** What an action achieved, announced politely (role status), until the user or its timer closes it. */
export function SuccessAlert({ children, onClose, ...rest }: Omit<AlertProps, 'onClose'> & { children: ReactNode; onClose: () => void }) {
  const intl = useIntl();
  return (
    <Alert
      color="green"
      variant="light"
      icon={<IconCheck size={18} />}
      role="status"
      withCloseButton
      closeButtonLabel={intl.formatMessage({ id: 'common.close' })}
      onClose={onClose}
      {...rest}
    >
      {children}
    </Alert>
  );
}
