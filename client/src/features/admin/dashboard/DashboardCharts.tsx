import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import '@mantine/charts/styles.layer.css';
import { Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DownloadStatsDto } from '../../../api/generated/model';
import type { MessageId } from '../../../i18n/message-id';
import { licensesPerWeek, shortDay } from './dashboard-display';

/** Every chart counts things: its axis shows whole numbers only (never 0.5 downloads). */
const counts = { allowDecimals: false };

function ChartCard({ title, summary, testId, children }: { title: MessageId; summary: string; testId: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" p="md" data-testid={testId}>
      <Title order={3} fz="md">
        <FormattedMessage id={title} />
      </Title>
      <Text fz="xs" c="dimmed" mb="sm">
        {summary}
      </Text>
      {/* The chart is a picture of the summary line above it, which screen readers read instead. */}
      <div role="img" aria-label={summary}>
        {children}
      </div>
    </Card>
  );
}

/** Downloads per day by OS (30 days), licenses issued per week (trial vs paid) and active devices per day. */
export function DashboardCharts({ stats, loading }: { stats: DownloadStatsDto | undefined; loading: boolean }) {
  const intl = useIntl();
  if (!stats) return loading ? <Skeleton h={300} /> : null;

  const t = (id: MessageId, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const day = (value: string) => shortDay(value, intl.locale);
  const number = (value: number) => intl.formatNumber(value);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const weeks = licensesPerWeek(stats.licenses_per_day, stats.from);
  const lastDevices = stats.active_devices_per_day.at(-1)?.active ?? 0;
  const range = { from: day(stats.from), to: day(stats.to) };
  // Tooltip titles: the day, or a week's days (Nov 5 – 11, the last week up to the range's end). Recharts also asks
  // with no label at all, which stays as it is.
  const isDay = (label: ReactNode): label is string => typeof label === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(label);
  const dayLabel = (label: ReactNode) => (isDay(label) ? day(label) : label);
  const weekLabel = (label: ReactNode) => {
    if (!isDay(label)) return label;
    const start = Date.parse(`${label}T00:00:00Z`);
    const end = Math.min(start + 6 * 86_400_000, Date.parse(`${stats.to}T00:00:00Z`));
    return intl.formatDateTimeRange(start, end, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  };

  return (
    <Stack gap="sm">
      <ChartCard
        title="admin.dashboard.charts.downloads"
        testId="chart-downloads"
        summary={t('admin.dashboard.charts.downloadsSummary', {
          ...range,
          total: sum(stats.downloads_per_day.map((d) => d.total)),
        })}
      >
        <AreaChart
          h={240}
          data={stats.downloads_per_day}
          dataKey="day"
          type="stacked"
          withLegend
          withDots={false}
          valueFormatter={number}
          yAxisProps={counts}
          xAxisProps={{ tickFormatter: day, minTickGap: 24 }}
          tooltipProps={{ labelFormatter: dayLabel }}
          series={[
            { name: 'windows', label: t('admin.files.os.windows'), color: 'blue.6' },
            { name: 'linux', label: t('admin.files.os.linux'), color: 'orange.6' },
            { name: 'macos', label: t('admin.files.os.macos'), color: 'gray.6' },
          ]}
        />
      </ChartCard>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
        <ChartCard
          title="admin.dashboard.charts.licenses"
          testId="chart-licenses"
          summary={t('admin.dashboard.charts.licensesSummary', {
            ...range,
            trial: sum(weeks.map((w) => w.trial)),
            paid: sum(weeks.map((w) => w.paid)),
          })}
        >
          <BarChart
            h={240}
            data={weeks}
            dataKey="week"
            type="stacked"
            withLegend
            valueFormatter={number}
            yAxisProps={counts}
            xAxisProps={{ tickFormatter: day }}
            tooltipProps={{ labelFormatter: weekLabel }}
            series={[
              { name: 'trial', label: t('admin.dashboard.charts.trial'), color: 'teal.6' },
              { name: 'paid', label: t('admin.dashboard.charts.paid'), color: 'violet.6' },
            ]}
          />
        </ChartCard>
        <ChartCard
          title="admin.dashboard.charts.devices"
          testId="chart-devices"
          summary={t('admin.dashboard.charts.devicesSummary', { count: lastDevices })}
        >
          <LineChart
            h={240}
            data={stats.active_devices_per_day}
            dataKey="day"
            withLegend
            withDots={stats.active_devices_per_day.length < 2}
            valueFormatter={number}
            yAxisProps={counts}
            xAxisProps={{ tickFormatter: day, minTickGap: 24 }}
            tooltipProps={{ labelFormatter: dayLabel }}
            series={[{ name: 'active', label: t('admin.dashboard.charts.activeDevices'), color: 'green.7' }]}
          />
        </ChartCard>
      </SimpleGrid>
      <FleetChart stats={stats} t={t} day={day} dayLabel={dayLabel} number={number} />
    </Stack>
  );
}

/** Colours of the charted versions, newest first; the rest are grey. */
const VERSION_COLORS = ['violet.6', 'blue.6', 'teal.6', 'orange.6', 'pink.6'];

type Formatters = {
  t: (id: MessageId, values?: Record<string, string | number>) => string;
  day: (value: string) => string;
  dayLabel: (label: ReactNode) => ReactNode;
  number: (value: number) => string;
};

/** The versions the seat-holding servers report, day by day, and how many run the newest stable release. */
function FleetChart({ stats, t, day, dayLabel, number }: { stats: DownloadStatsDto } & Formatters) {
  const intl = useIntl();
  const fleet = stats.fleet_versions;
  // Series keys are v0…: a version's dots would read as a path into the row.
  const data = fleet.days.map((entry) => ({
    day: entry.day,
    other: entry.other,
    ...Object.fromEntries(entry.servers.map((servers, i) => [`v${i}`, servers])),
  }));
  const summary = fleet.newest_stable
    ? t('admin.dashboard.charts.fleetSummary', {
        share: intl.formatNumber(fleet.servers ? fleet.on_newest_stable / fleet.servers : 0, { style: 'percent' }),
        servers: fleet.servers,
        version: fleet.newest_stable,
      })
    : t('admin.dashboard.charts.fleetSummaryNoStable', { servers: fleet.servers });
  return (
    <ChartCard title="admin.dashboard.charts.fleet" testId="chart-fleet" summary={summary}>
      <AreaChart
        h={240}
        data={data}
        dataKey="day"
        type="stacked"
        withLegend
        withDots={data.length < 2}
        valueFormatter={number}
        yAxisProps={counts}
        xAxisProps={{ tickFormatter: day, minTickGap: 24 }}
        tooltipProps={{ labelFormatter: dayLabel }}
        series={[
          ...fleet.versions.map((version, i) => ({ name: `v${i}`, label: version, color: VERSION_COLORS[i] })),
          { name: 'other', label: t('admin.dashboard.charts.otherVersions'), color: 'gray.5' },
        ]}
      />
    </ChartCard>
  );
}
