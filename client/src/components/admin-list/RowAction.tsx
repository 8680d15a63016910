import { ActionIcon, ActionIconProps, Group, Tooltip } from '@mantine/core';
import { IconTrash, type TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import type { IntlShape } from 'react-intl';

/** One of a row's actions: an icon button in the Actions column, or an item of the row's menu on a phone. */
export interface RowActionItem extends Pick<ActionIconProps, 'color' | 'loading' | 'disabled'> {
  icon: TablerIcon;
  /** The accessible name, naming the row ('Delete user ada@example.com'). */
  label: string;
  /** The short visible hint ('Delete'), and the menu item's text. */
  tooltip: string;
  onClick: () => void;
}

/**
 * An icon button in a table row's Actions cell: a tooltip for sighted users, a full name for assistive technology.
 * A disabled one stays hoverable (data-disabled, not the attribute) so its tooltip can say why.
 */
export function RowAction({ icon: Icon, label, tooltip, onClick, disabled, ...rest }: RowActionItem) {
  return (
    <Tooltip label={tooltip}>
      <ActionIcon
        variant="subtle"
        aria-label={label}
        onClick={disabled ? undefined : onClick}
        data-disabled={disabled || undefined}
        aria-disabled={disabled || undefined}
        {...rest}
      >
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
export function deleteAction(intl: IntlShape, item: Omit<RowActionItem, 'icon' | 'tooltip' | 'color'>): RowActionItem {
  return { icon: IconTrash, color: 'red', tooltip: intl.formatMessage({ id: 'common.delete' }), ...item };
}
