import { SimpleGrid, Text } from '@mantine/core';
import { IconAlarm, IconBan, IconCircleCheck, IconDevices, IconKey } from '@tabler/icons-react';
import { FormattedNumber } from 'react-intl';
import type { LicenseStatsDto } from '../../../api/generated/model';
import { StatCard, StatCardSpec } from '../../../components/StatCard';

const CARDS: Array<StatCardSpec<keyof LicenseStatsDto>> = [
  { key: 'total', label: 'adminLicenses.stats.total', icon: IconKey, color: 'violet' },
  { key: 'active', label: 'adminLicenses.stats.active', icon: IconCircleCheck, color: 'green' },
  { key: 'expiring_soon', label: 'adminLicenses.stats.expiringSoon', icon: IconAlarm, color: 'orange' },
  { key: 'revoked', label: 'adminLicenses.stats.revoked', icon: IconBan, color: 'gray' },
  { key: 'total_activations', label: 'adminLicenses.stats.activations', icon: IconDevices, color: 'blue' },
];

/** Key figures from GET /admin/licenses/stats; nothing is shown in their place when the call fails. */
export function LicenseStatsCards({ stats, loading }: { stats: LicenseStatsDto | undefined; loading: boolean }) {
  if (!stats && !loading) return null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="license-stats">
      {CARDS.map(({ key, ...card }) => (
        <StatCard
          key={key}
          {...card}
          testId={`license-stat-${key}`}
          value={
            stats && (
              <>
                <FormattedNumber value={stats[key]} />
                {key === 'total_activations' && (
                  <Text span fz="sm" c="dimmed" fw={500}>
                    {' / '}
                    <FormattedNumber value={stats.total_max_activations} />
                  </Text>
                )}
              </>
            )
          }
        />
      ))}
    </SimpleGrid>
  );
}
