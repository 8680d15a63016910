import { Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ActivityDto } from '../../../api/generated/model';
import { WrapEmails } from '../../../components/WrapEmails';
import { describeAudit } from '../../../lib/audit-messages';
import { activityColor, relativeTime } from './dashboard-display';
import { MessageText } from '../../../components/Message';

/** The five newest audit entries in the reader's language (see describeAudit), who, when; errors red, warnings yellow, the rest purple. */
export function RecentActivity({ entries, loading }: { entries: ActivityDto[] | undefined; loading: boolean }) {
  const intl = useIntl();
  return (
    <Card withBorder radius="md" p="md" h="100%">
      <Title order={3} fz="md" mb="sm">
        <FormattedMessage id="admin.dashboard.activity.title" />
      </Title>
      {loading && !entries && <Skeleton h={120} />}
      {entries && entries.length === 0 && <MessageText c="dimmed" fz="sm" message="admin.dashboard.activity.empty" />}
      {entries && entries.length > 0 && (
        <Stack gap="sm" data-testid="recent-activity">
          {entries.map((entry) => {
            const at = new Date(entry.activity_time);
            return (
              <Group key={entry.id} gap="sm" wrap="nowrap" align="flex-start" data-level={entry.type}>
                <ThemeIcon size={28} radius="xl" variant="light" color={activityColor(entry.type)} aria-hidden>
                  <IconActivity size={16} />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text fz="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    <WrapEmails text={describeAudit(intl, entry)} />
                  </Text>
                  <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    <WrapEmails text={entry.user_name ?? intl.formatMessage({ id: 'admin.dashboard.activity.system' })} />
                    {entry.ip_address ? ` · ${entry.ip_address}` : ''} ·{' '}
                    <time dateTime={at.toISOString()} title={intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'medium' })}>
                      {intl.formatRelativeTime(...relativeTime(at, new Date()), { numeric: 'auto' })}
                    </time>
                  </Text>
                </div>
              </Group>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
