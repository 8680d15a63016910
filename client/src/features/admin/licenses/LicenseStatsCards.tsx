import { Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import { IconAlarm, IconBan, IconCircleCheck, IconDevices, IconKey } from '@tabler/icons-react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import type { LicenseStatsDto } from '../../../api/generated/model';
import type { MessageId } from '../../../i18n/message-id';

const CARDS: Array<{ key: keyof LicenseStatsDto; label: MessageId; icon: typeof IconKey; color: string }> = [
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
      {CARDS.map(({ key, label, icon: Icon, color }) => (
        <Card key={key} withBorder radius="md" p="sm">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" color={color} size={36} radius="md" aria-hidden>
              <Icon size={20} />
            </ThemeIcon>
            <div>
              <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                <FormattedMessage id={label} />
              </Text>
              {stats ? (
                <Text fz="lg" fw={700} data-testid={`license-stat-${key}`}>
                  <FormattedNumber value={stats[key]} />
                  {key === 'total_activations' && (
                    <Text span fz="sm" c="dimmed" fw={500}>
                      {' / '}
                      <FormattedNumber value={stats.total_max_activations} />
                    </Text>
                  )}
                </Text>
              ) : (
                <Skeleton h={22} w={48} mt={4} />
              )}
            </div>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
