import { Stack } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import type { MessageId } from '../../i18n/message-id';
import { EmptyState, FilterCard, ListBody, ListPager, ListPagerProps, LoadError } from './ListFrame';
import { ActionFeedback, ActionFeedbackAlerts } from './use-action-feedback';
import type { ListMeta } from './use-server-list';

type Loaded = { error: Error | null; refetch: () => unknown };

interface ListScreenProps {
  /** The title block (PageHeader). */
  header: ReactNode;
  /** Between the title and the action banners, such as the license-server status. */
  status?: ReactNode;
  feedback: ActionFeedback;
  list: {
    result: Loaded & { isLoading: boolean; data?: unknown };
    meta: ListMeta | undefined;
    filtered: boolean;
    setPage: (page: number) => void;
  };
  /** The list's failed load ({message} placeholder). */
  loadError: MessageId;
  /** The failed loads of the screen's other data. */
  moreLoads?: Array<{ query: Loaded; message: MessageId }>;
  /** Between the banners and the filters: the screen's figures. */
  figures?: ReactNode;
  /** The filter card's row (search box, filters, buttons) and its optional row below. */
  filters: ReactNode;
  filtersFooter?: ReactNode;
  isEmpty: boolean;
  /** No rows: what is missing, and the hint when a search or filter narrows the list and when not. */
  empty: { icon: TablerIcon; title: MessageId; filtered: MessageId; none: MessageId; testId: string };
  loadingLabel?: string;
  pager: Omit<ListPagerProps, 'meta' | 'onPage'>;
  table: ReactNode;
  /** The screen's dialogs. */
  children?: ReactNode;
}

/** An admin list screen, top to bottom: title, status, action banners, load failures, figures, filters, rows and pager. */
export function ListScreen({
  header,
  status,
  feedback,
  list,
  loadError,
  moreLoads = [],
  figures,
  filters,
  filtersFooter,
  isEmpty,
  empty,
  loadingLabel,
  pager,
  table,
  children,
}: ListScreenProps) {
  return (
    <Stack gap="md">
      {header}
      {status}
      <ActionFeedbackAlerts feedback={feedback} />
      <LoadError query={list.result} message={loadError} />
      {moreLoads.map(({ query, message }, index) => (
        <LoadError key={index} query={query} message={message} />
      ))}
      {figures}
      <FilterCard footer={filtersFooter}>{filters}</FilterCard>
      <ListBody
        result={list.result}
        isEmpty={isEmpty}
        loadingLabel={loadingLabel}
        empty={
          <EmptyState icon={empty.icon} title={empty.title} hint={list.filtered ? empty.filtered : empty.none} testId={empty.testId} />
        }
      >
        {table}
      </ListBody>
      <ListPager meta={list.meta} onPage={list.setPage} {...pager} />
      {children}
    </Stack>
  );
}
