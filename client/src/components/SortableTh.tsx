import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { ReactNode } from 'react';

interface SortableThProps {
  children: ReactNode;
  active: boolean;
  order: 'asc' | 'desc';
  onSort: () => void;
  className?: string;
}

/** A column header that sorts on click; aria-sort tells assistive technology the state. */
export function SortableTh({ children, active, order, onSort, className }: SortableThProps) {
  const Icon = active ? (order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} p={0} className={className}>
      <UnstyledButton onClick={onSort} px="sm" py={8} w="100%">
        <Group justify="space-between" gap={4} wrap="nowrap">
          <Text fw={600} fz="sm">
            {children}
          </Text>
          <Icon size={14} stroke={1.6} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
