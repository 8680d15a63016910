import { Alert, AlertProps, Button, Group } from '@mantine/core';
import { IconAlertTriangle, TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

interface ErrorAlertProps {
  title?: ReactNode;
  children: ReactNode;
  onRetry?: () => void;
  onClose?: () => void;
  actions?: ReactNode;
}

/** The alerts' frame: light, with an icon, and a close button when `onClose` is given. */
export function Notice({
  icon: Icon,
  onClose,
  ...rest
}: Omit<AlertProps, 'icon' | 'onClose'> & { icon: TablerIcon; onClose?: () => void }) {
  const intl = useIntl();
  return (
    <Alert
      variant="light"
      icon={<Icon size={18} />}
      withCloseButton={!!onClose}
      closeButtonLabel={intl.formatMessage({ id: 'common.close' })}
      onClose={onClose}
      {...rest}
    />
  );
}

/** A failed call shown as it is: the real message, and what the user can do next. */
export function ErrorAlert({ title, children, onRetry, onClose, actions }: ErrorAlertProps) {
  return (
    <Notice color="red" icon={IconAlertTriangle} title={title} onClose={onClose} role="alert">
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
    </Notice>
  );
}
