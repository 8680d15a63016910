import { Group, Text } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';

/** The product mark, on light or (inverted) dark backgrounds. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <IconBroadcast size={28} color={`var(--mantine-color-violet-${inverted ? 3 : 6})`} aria-hidden />
      <Text fw={800} fz="xl" c={inverted ? 'white' : 'dark.8'}>
        StreamHub
      </Text>
    </Group>
  );
}
