import { Box, Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { MessageText } from './Message';

interface PagerBarProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  summary: ReactNode;
  /** Show First and Last as well as Previous and Next. */
  withEdges?: boolean;
}

/** First, Previous, 'Page n of m', Next, Last — shown only when there is more than one page. */
export function PagerBar({ page, pages, onPage, summary, withEdges = true }: PagerBarProps) {
  const intl = useIntl();
  if (pages <= 1) return null;
  // On phones the edge and step buttons keep their icons and accessible names but drop the visible words.
  const label = (id: 'pager.first' | 'pager.previous' | 'pager.next' | 'pager.last') => ({
    'aria-label': intl.formatMessage({ id }),
    children: (
      <Box component="span" visibleFrom="sm">
        {intl.formatMessage({ id })}
      </Box>
    ),
  });
  return (
    <Group justify="space-between" gap="sm" mt="md" wrap="wrap">
      <Text fz="sm" c="dimmed">
        {summary}
      </Text>
      <Group gap={6} wrap="nowrap" role="navigation" aria-label={intl.formatMessage({ id: 'pager.label' })}>
        {withEdges && (
          <Button
            size="xs"
            variant="default"
            disabled={page <= 1}
            onClick={() => onPage(1)}
            leftSection={<IconChevronsLeft size={14} />}
            {...label('pager.first')}
          />
        )}
        <Button
          size="xs"
          variant="default"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
          leftSection={<IconChevronLeft size={14} />}
          {...label('pager.previous')}
        />
        <MessageText
          fz="sm"
          px={4}
          style={{ whiteSpace: 'nowrap' }}
          data-testid="page-indicator"
          message="pager.pageOf"
          values={{ page, pages }}
        />
        <Button
          size="xs"
          variant="default"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
          rightSection={<IconChevronRight size={14} />}
          {...label('pager.next')}
        />
        {withEdges && (
          <Button
            size="xs"
            variant="default"
            disabled={page >= pages}
            onClick={() => onPage(pages)}
            rightSection={<IconChevronsRight size={14} />}
            {...label('pager.last')}
          />
        )}
      </Group>
    </Group>
  );
}
