import { Code, Stack, Text } from '@mantine/core';
import { FormattedDate, FormattedMessage } from 'react-intl';
import type { DownloadLinkDto } from '../../api/generated/model';
import { formatBytes } from '../../i18n/format';
import type { SuccessContent } from './SuccessDialog';
import { MessageText } from '../../components/Message';

/** 'Download Started': the file, its size and the SHA-256 to check it against. */
export const downloadStartedContent = (link: DownloadLinkDto, locale: string): SuccessContent => ({
  title: <FormattedMessage id="dashboard.downloads.success.started.title" />,
  body: (
    <Stack gap="xs" data-testid="download-started">
      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
        <FormattedMessage
          id="dashboard.downloads.success.started.text"
          values={{ file: link.file_name, size: formatBytes(link.file_size, locale) }}
        />
      </Text>
      <div>
        <MessageText fz="xs" c="dimmed" message="dashboard.downloads.success.sha" />
        <Code block fz="xs" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="download-sha256">
          {link.file_hash}
        </Code>
      </div>
    </Stack>
  ),
});

/** 'Command Copied': which file the command installs and until when its link works. */
export const commandCopiedContent = (link: DownloadLinkDto): SuccessContent => ({
  title: <FormattedMessage id="dashboard.downloads.success.copied.title" />,
  body: (
    <Stack gap="xs" data-testid="command-copied">
      <MessageText
        fz="sm"
        style={{ overflowWrap: 'anywhere' }}
        message="dashboard.downloads.success.copied.text"
        values={{ file: link.file_name }}
      />
      <Text fz="sm" c="dimmed">
        <FormattedMessage
          id="dashboard.downloads.success.copied.valid"
          values={{ time: <FormattedDate value={link.expires_at} dateStyle="medium" timeStyle="short" /> }}
        />
      </Text>
    </Stack>
  ),
});
