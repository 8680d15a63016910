import { Alert, Button, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

interface ErrorAlertProps {
  title?: ReactNode;
  children: ReactNode;
  onRetry?: () => void;
  onClose?: () => void;
  actions?: ReactNode;
}

/** A failed call shown as it is: the real message, and what the user can do next. */
export function ErrorAlert({ title, children, onRetry, onClose, actions }: ErrorAlertProps) {
  const intl = useIntl();
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={title}
      withCloseButton={!!onClose}
      closeButtonLabel={intl.formatMessage({ id: 'common.close' })}
      onClose={onClose}
      role="alert"
    >
      {children}
      {(onRetry || actions) && (
        <Group gap="xs" mt="sm">
          {onRetry && (
            <Button size="xs" variant="white" color="red" onClick={onRetry}>
              <FormattedMessage id="common.retry" />
            </Button>
          )}
          {actions}
        </Group>
      )}
    </Alert>
  );
}
