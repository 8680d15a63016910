import { Stack } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../../i18n/message-id';
import { EmptyState, FilterCard, ListBody, ListPager, ListPagerProps, LoadError, PageHeader } from './ListFrame';
import { ActionFeedback, ActionFeedbackAlerts } from './use-action-feedback';
import type { ListMeta } from './use-server-list';

type Loaded = { error: Error | null; refetch: () => unknown };

/** The texts a list screen names after its title: its failed load ({message}) and its empty list's. */
type ScreenText = '.errors.load' | '.empty.title' | '.empty.filtered' | '.empty.none';
type ScreenOf<Id> = Id extends `${infer Screen}.title` ? Screen : never;
/** The title of a screen whose ScreenTexts are all in the catalogs ('admin.files.title', 'users.title' …). */
type ListTitle = { [S in ScreenOf<MessageId>]: `${S}${ScreenText}` extends MessageId ? `${S}.title` : never }[ScreenOf<MessageId>];

interface ListScreenProps {
  title: ListTitle;
  subtitle?: ReactNode;
  /** The screen's buttons, right of the title. */
  actions?: ReactNode;
  /** Between the title and the action banners, such as the license-server status. */
  status?: ReactNode;
  feedback: ActionFeedback;
  list: {
    result: Loaded & { isLoading: boolean; data?: unknown };
    meta: ListMeta | undefined;
    filtered: boolean;
    setPage: (page: number) => void;
  };
  /** The failed loads of the screen's other data. */
  moreLoads?: Array<{ query: Loaded; message: MessageId }>;
  /** Between the banners and the filters: the screen's figures. */
  figures?: ReactNode;
  /** The filter card's row (search box, filters, buttons) and its optional row below. */
  filters: ReactNode;
  filtersFooter?: ReactNode;
  isEmpty: boolean;
  /** No rows: an icon over the texts (what is missing, and the hint when a search or filter narrows the list and when not). */
  empty: { icon: TablerIcon; testId: string };
  loadingLabel?: string;
  pager: Omit<ListPagerProps, 'meta' | 'onPage'>;
  table: ReactNode;
  /** The screen's dialogs. */
  children?: ReactNode;
}

/** An admin list screen, top to bottom: title, status, action banners, load failures, figures, filters, rows and pager. */
export function ListScreen({
  title,
  subtitle,
  actions,
  status,
  feedback,
  list,
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
  const id = (text: ScreenText) => title.replace(/\.title$/, text) as MessageId;
  return (
    <Stack gap="md">
      <PageHeader title={<FormattedMessage id={title} />} subtitle={subtitle} actions={actions} />
      {status}
      <ActionFeedbackAlerts feedback={feedback} />
      <LoadError query={list.result} message={id('.errors.load')} />
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
          <EmptyState
            icon={empty.icon}
            title={id('.empty.title')}
            hint={id(list.filtered ? '.empty.filtered' : '.empty.none')}
            testId={empty.testId}
          />
        }
      >
        {table}
      </ListBody>
      <ListPager meta={list.meta} onPage={list.setPage} {...pager} />
      {children}
    </Stack>
  );
}
