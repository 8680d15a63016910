import { AlertProps } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { Notice } from './ErrorAlert';

/** What an action achieved, announced politely (role status), until the user or its timer closes it. */
export function SuccessAlert({
  children,
  onClose,
  ...rest
}: Omit<AlertProps, 'onClose' | 'icon'> & { children: ReactNode; onClose: () => void }) {
  return (
    <Notice color="green" icon={IconCheck} role="status" onClose={onClose} {...rest}>
      {children}
    </Notice>
  );
}
