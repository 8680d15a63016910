import { Anchor, Button, Card, ComboboxItem, Group, Loader, Select, SelectProps, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh, TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import type { MessageId } from '../../i18n/message-id';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../ErrorAlert';
import { PagerBar } from '../PagerBar';
import { pageRange } from '../pagination';
import type { ListMeta } from './use-server-list';
import { MessageText } from '../Message';

interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** The screen's buttons, on the right. */
  actions?: ReactNode;
}

/** An admin list screen's title block: the link back to the dashboard, title, subtitle and buttons. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <>
      <Anchor component={Link} to={paths.admin.dashboard} fz="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={14} aria-hidden />
          <FormattedMessage id="admin.back" />
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>{title}</Title>
          {subtitle && (
            <Text c="dimmed" fz="sm">
              {subtitle}
            </Text>
          )}
        </div>
        {actions && (
          <Group gap="xs" wrap="wrap">
            {actions}
          </Group>
        )}
      </Group>
    </>
  );
}

/** A failed load, in its own words, with Retry. `message` is an id with a {message} placeholder. */
export function LoadError({ query, message }: { query: { error: Error | null; refetch: () => unknown }; message: MessageId }) {
  const intl = useIntl();
  if (!query.error) return null;
  return <ErrorAlert onRetry={() => query.refetch()}>{intl.formatMessage({ id: message }, { message: query.error.message })}</ErrorAlert>;
}

/** Refresh: spins while a reload (not the first load) is under way. */
export function RefreshButton({ result, onClick }: { result: { isFetching: boolean; isLoading: boolean }; onClick: () => void }) {
  return (
    <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onClick} loading={result.isFetching && !result.isLoading}>
      <FormattedMessage id="common.refresh" />
    </Button>
  );
}

interface FilterSelectProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  value: string;
  /** Every choice, the 'all' one included. */
  options: ComboboxItem[];
  onChange: (value: string) => void;
}

/** A filter of the list: always one choice selected. */
export function FilterSelect({ options, onChange, ...rest }: FilterSelectProps) {
  return <Select data={options} allowDeselect={false} onChange={(value) => value !== null && onChange(value)} {...rest} />;
}

/** The card above a list: search box, filters and buttons in one wrapping row, and an optional row below. */
export function FilterCard({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <Card withBorder radius="md" p="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        {children}
      </Group>
      {footer && (
        <Group justify="space-between" mt="sm">
          {footer}
        </Group>
      )}
    </Card>
  );
}

interface EmptyStateProps {
  icon: TablerIcon;
  title: MessageId;
  hint: MessageId;
  testId: string;
}

/** No rows: an icon, what is missing, and what to try. */
export function EmptyState({ icon: Icon, title, hint, testId }: EmptyStateProps) {
  return (
    <Stack align="center" gap={6} p="xl" ta="center" data-testid={testId}>
      <Icon size={40} color="var(--mantine-color-gray-5)" aria-hidden />
      <MessageText fw={600} message={title} />
      <MessageText fz="sm" c="dimmed" message={hint} />
    </Stack>
  );
}

interface ListBodyProps {
  result: { isLoading: boolean; error: unknown; data?: unknown };
  /** Whether the answer has no rows. */
  isEmpty: boolean;
  empty: ReactNode;
  loadingLabel?: string;
  /** The table. */
  children: ReactNode;
}

/**
 * The list's card: a loader on the first load, the empty state, or the table. A failed load shows nothing here:
 * its error shows above, never an empty list or sample rows in its place.
 */
export function ListBody({ result, isEmpty, empty, loadingLabel, children }: ListBodyProps) {
  if (result.error && !result.data) return null;
  return (
    <Card withBorder radius="md" p={0}>
      {result.isLoading ? (
        <Group justify="center" p="xl">
          <Loader aria-label={loadingLabel} />
        </Group>
      ) : isEmpty ? (
        empty
      ) : (
        children
      )}
    </Card>
  );
}

export interface ListPagerProps {
  meta: ListMeta | undefined;
  onPage: (page: number) => void;
  /** 'Showing {from} to {to} of {total} …'. */
  summary: MessageId;
  /** The summary's test id. */
  testId?: string;
  /** Show First and Last as well as Previous and Next. */
  withEdges?: boolean;
  /** Show the summary on its own when everything fits on one page. */
  singlePageSummary?: boolean;
}

/** The pager under a list, with the range shown; only the summary (or nothing) when there is one page. */
export function ListPager({ meta, onPage, summary, testId, withEdges = true, singlePageSummary = true }: ListPagerProps) {
  if (!meta) return null;
  const { from, to } = pageRange(meta.page, meta.limit, meta.total);
  const text = <FormattedMessage id={summary} values={{ from, to, total: meta.total }} />;
  if (meta.pages > 1)
    return (
      <PagerBar
        page={meta.page}
        pages={meta.pages}
        onPage={onPage}
        withEdges={withEdges}
        summary={testId ? <span data-testid={testId}>{text}</span> : text}
      />
    );
  return singlePageSummary ? (
    <Text fz="sm" c="dimmed" data-testid={testId}>
      {text}
    </Text>
  ) : null;
}
