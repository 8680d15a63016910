import { Card, Group, GroupProps, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MessageId } from '../i18n/message-id';
import { MessageText } from './Message';

/** A card of a row: its key names the figure (and its test id). */
export interface StatCardSpec<K extends string> {
  key: K;
  label: MessageId;
  icon: TablerIcon;
  color: string;
}

interface StatCardProps extends Omit<StatCardSpec<string>, 'key'> {
  /** The figure; a placeholder while it loads (undefined). */
  value: ReactNode | undefined;
  testId: string;
  align?: GroupProps['align'];
  /** Below the figure. */
  children?: ReactNode;
}

/** One figure of an admin screen's row of cards: an icon, the caption and the figure. */
export function StatCard({ label, icon: Icon, color, value, testId, align, children }: StatCardProps) {
  return (
    <Card withBorder radius="md" p="sm">
      <Group gap="sm" wrap="nowrap" align={align}>
        <ThemeIcon variant="light" color={color} size={36} radius="md" aria-hidden>
          <Icon size={20} />
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <MessageText fz="xs" c="dimmed" tt="uppercase" fw={600} message={label} />
          {value === undefined ? (
            <Skeleton h={22} w={48} mt={4} />
          ) : (
            <Text fz="lg" fw={700} data-testid={testId}>
              {value}
            </Text>
          )}
          {children}
        </div>
      </Group>
    </Card>
  );
}
