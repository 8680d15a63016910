import { ActionIcon, ActionIconProps, Group, Tooltip } from '@mantine/core';
import { IconTrash, type TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { useIntl } from 'react-intl';

interface RowActionProps extends Omit<ActionIconProps, 'children'> {
  icon: TablerIcon;
  /** The accessible name, naming the row ('Delete user ada@example.com'). */
  label: string;
  /** The short visible hint ('Delete'). */
  tooltip: string;
  onClick: () => void;
}

/** An icon button in a table row's Actions cell: a tooltip for sighted users, a full name for assistive technology. */
export function RowAction({ icon: Icon, label, tooltip, onClick, ...rest }: RowActionProps) {
  return (
    <Tooltip label={tooltip}>
      <ActionIcon variant="subtle" aria-label={label} onClick={onClick} {...rest}>
        <Icon size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

/** The Actions cell's row of icon buttons. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      {children}
    </Group>
  );
}

/** A row's Delete: red, with 'Delete' as its hint and the row in its name. */
export function DeleteAction(props: Omit<RowActionProps, 'icon' | 'tooltip' | 'color'>) {
  const intl = useIntl();
  return <RowAction icon={IconTrash} color="red" tooltip={intl.formatMessage({ id: 'common.delete' })} {...props} />;
}
