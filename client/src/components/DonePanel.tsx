import { Stack, ThemeIcon } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { ReactNode } from 'react';

/** A green check above what was achieved and what comes next, announced politely. */
export function DonePanel({ children }: { children: ReactNode }) {
  return (
    <Stack align="center" ta="center" gap="sm" role="status">
      <ThemeIcon size={64} radius="xl" color="green" variant="light">
        <IconCircleCheck size={36} />
      </ThemeIcon>
      {children}
    </Stack>
  );
}
