import { SimpleGrid, Text } from '@mantine/core';
import { IconDatabase, IconDeviceDesktop, IconDownload, IconFiles } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { FormattedNumber, useIntl } from 'react-intl';
import type { FileStatsDto } from '../../../api/generated/model';
import { formatAdminBytes } from '../../../i18n/format';
import { platformCount } from './file-display';
import { StatCard, StatCardSpec } from '../../../components/StatCard';

type CardKey = 'files' | 'downloads' | 'size' | 'platforms';

const CARDS: Array<StatCardSpec<CardKey>> = [
  { key: 'files', label: 'admin.files.stats.totalFiles', icon: IconFiles, color: 'violet' },
  { key: 'downloads', label: 'admin.files.stats.totalDownloads', icon: IconDownload, color: 'green' },
  { key: 'size', label: 'admin.files.stats.totalSize', icon: IconDatabase, color: 'blue' },
  { key: 'platforms', label: 'admin.files.stats.platforms', icon: IconDeviceDesktop, color: 'orange' },
];

/** Total Files, Total Downloads, Total Size and Platforms from GET /admin/distribution-files/stats; nothing invented when it fails. */
export function FileStatsCards({ stats, loading }: { stats: FileStatsDto | undefined; loading: boolean }) {
  const intl = useIntl();
  if (!stats && !loading) return null;

  const value = (key: CardKey, data: FileStatsDto): ReactNode => {
    switch (key) {
      case 'files':
        return <FormattedNumber value={data.total_files} />;
      case 'downloads':
        return <FormattedNumber value={data.total_downloads} />;
      case 'size':
        return formatAdminBytes(data.total_size, intl.locale);
      case 'platforms':
        return <FormattedNumber value={platformCount(data)} />;
    }
  };

  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" data-testid="file-stats">
      {CARDS.map(({ key, ...card }) => (
        <StatCard key={key} {...card} align="flex-start" testId={`file-stat-${key}`} value={stats && value(key, stats)}>
          {key === 'platforms' && stats && stats.files_by_os.length > 0 && (
            <Text fz="xs" c="dimmed" data-testid="file-stat-by-os">
              {stats.files_by_os
                .map((row) =>
                  intl.formatMessage(
                    { id: 'admin.files.stats.osCount' },
                    { os: intl.formatMessage({ id: `admin.files.os.${row.os_type}` }), count: row.count },
                  ),
                )
                .join(' · ')}
            </Text>
          )}
        </StatCard>
      ))}
    </SimpleGrid>
  );
}
