import { Stack, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { MessageText } from '../../../components/Message';
import { DownloadRulesSection } from './DownloadRulesSection';
import { SigningKeysSection } from './SigningKeysSection';

/** Admin Settings: who may download releases, and the portal's signing keys (rotation and removal). */
export default function SettingsPage() {
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <FormattedMessage id="admin.nav.settings" />
        </Title>
        <MessageText c="dimmed" fz="sm" message="admin.settings.subtitle" />
      </div>
      <DownloadRulesSection />
      <SigningKeysSection />
    </Stack>
  );
}
