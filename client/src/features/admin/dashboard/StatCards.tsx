import { Badge, Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import { IconCurrencyDollar, IconDownload, IconKey, IconUsers } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import type { DashboardStatisticsDto } from '../../../api/generated/model';
import { formatCount, formatMoney } from '../../../i18n/format';
import type { MessageId } from '../../../i18n/message-id';
import { changePercent } from './dashboard-display';
import { MessageText } from '../../../components/Message';

type CardKey = 'users' | 'licenses' | 'downloads' | 'revenue';

const CARDS: Array<{ key: CardKey; label: MessageId; icon: typeof IconUsers; color: string }> = [
  { key: 'users', label: 'admin.dashboard.stats.users', icon: IconUsers, color: 'violet' },
  { key: 'licenses', label: 'admin.dashboard.stats.licenses', icon: IconKey, color: 'teal' },
  { key: 'downloads', label: 'admin.dashboard.stats.downloads', icon: IconDownload, color: 'blue' },
  { key: 'revenue', label: 'admin.dashboard.stats.revenue', icon: IconCurrencyDollar, color: 'orange' },
];

/** The card's figure now and 30 days ago. */
function figures(key: CardKey, stats: DashboardStatisticsDto): { now: number; before: number } {
  const previous = stats.previous_period;
  switch (key) {
    case 'users':
      return { now: stats.users.total, before: previous.users_total };
    case 'licenses':
      return { now: stats.licenses.active, before: previous.licenses_active };
    case 'downloads':
      return { now: stats.downloads.total, before: previous.downloads_total };
    case 'revenue':
      return { now: stats.orders.revenue_total, before: previous.revenue_total };
  }
}

/**
 * Total Users, Active Licenses, Total Downloads and Revenue, in full below 10,000 and in short form (12K) from there
 * (the spec's "in thousands with K" read 2 downloads as "0K"), each with its change over 30 days when there was a
 * figure 30 days ago to compare with, and nothing said when there was none.
 */
export function StatCards({ stats }: { stats: DashboardStatisticsDto | undefined }) {
  const intl = useIntl();
  const shown = (key: CardKey, now: number, currency: string): string =>
    key === 'revenue' ? formatMoney(intl, now, currency, { compact: true }) : formatCount(intl, now, { compact: true });

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="sm" data-testid="dashboard-stats">
      {CARDS.map(({ key, label, icon: Icon, color }) => {
        const values = stats && figures(key, stats);
        const change = values ? changePercent(values.now, values.before) : null;
        return (
          <Card key={key} withBorder radius="md" p="md">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <MessageText fz="xs" c="dimmed" tt="uppercase" fw={600} message={label} />
                {values ? (
                  <Text fz={26} fw={700} data-testid={`dashboard-stat-${key}`} title={String(values.now)}>
                    {shown(key, values.now, stats.orders.currency)}
                  </Text>
                ) : (
                  <Skeleton h={30} w={72} mt={4} />
                )}
              </div>
              <ThemeIcon variant="light" color={color} size={40} radius="md" aria-hidden>
                <Icon size={22} />
              </ThemeIcon>
            </Group>
            {change !== null && (
              <Group gap={6} mt={6} data-testid={`dashboard-change-${key}`}>
                <Badge size="sm" variant="light" color={change >= 0 ? 'green' : 'red'}>
                  {intl.formatNumber(change / 100, { style: 'percent', signDisplay: 'always' })}
                </Badge>
                <MessageText fz="xs" c="dimmed" message="admin.dashboard.stats.since30Days" />
              </Group>
            )}
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
