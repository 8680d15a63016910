import { Card, CardProps, Group, Loader, Stack, Title } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import { ReactNode, Ref } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { MessageId } from '../../i18n/message-id';
import { localizeServerMessage } from '../../lib/server-messages';
import { MessageText } from '../../components/Message';

interface DashboardSectionProps extends Omit<CardProps, 'title'> {
  /** Names the section: its title's id is `{id}-title`. */
  id: string;
  icon: TablerIcon;
  title: MessageId;
  subtitle?: MessageId;
  /** Where the rows stand: a loader on the first load, and a failure in its own words with Retry instead of rows. */
  rows: { loading: boolean; error: Error | null; retry: () => void; empty: boolean };
  /** What shows when there are no rows. */
  empty: ReactNode;
  /** Above the rows, whatever their state (a success message). */
  notice?: ReactNode;
  ref?: Ref<HTMLDivElement>;
  'data-testid'?: string;
  /** The rows, and the pager under them. */
  children: ReactNode;
}

/** Where a list query's rows stand, as a section shows them. */
export const listRows = (result: { isLoading: boolean; error: Error | null; refetch: () => unknown }, empty: boolean) => ({
  loading: result.isLoading,
  error: result.error,
  retry: () => void result.refetch(),
  empty,
});

/** A list on the client dashboard, as a titled section of its own. */
export function DashboardSection({ id, icon: Icon, title, subtitle, rows, empty, notice, children, ...card }: DashboardSectionProps) {
  const intl = useIntl();
  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby={`${id}-title`} {...card}>
      <Stack gap="md">
        <div>
          <Group gap="xs">
            <Icon size={22} color="var(--mantine-color-violet-6)" aria-hidden />
            <Title order={2} fz="xl" id={`${id}-title`}>
              <FormattedMessage id={title} />
            </Title>
          </Group>
          {subtitle && <MessageText fz="sm" c="dimmed" mt={4} message={subtitle} />}
        </div>
        {notice}
        {rows.loading ? (
          <Group justify="center" p="md">
            <Loader size="sm" />
          </Group>
        ) : rows.error ? (
          <ErrorAlert onRetry={rows.retry}>
            {intl.formatMessage({ id: 'dashboard.errors.load' }, { message: localizeServerMessage(intl, rows.error.message) })}
          </ErrorAlert>
        ) : rows.empty ? (
          empty
        ) : (
          children
        )}
      </Stack>
    </Card>
  );
}
