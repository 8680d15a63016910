import { Button, Checkbox, CopyButton, Group, List, Paper, Stack } from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { saveFile } from '../../lib/browser-actions';
import { MessageText, MessageTitle } from '../Message';

/** The ten recovery codes, shown once: copy or download them, and say they are kept before going on. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const intl = useIntl();
  const [saved, setSaved] = useState(false);
  const text = codes.join('\n');
  return (
    <Stack gap="md" data-testid="recovery-codes">
      <MessageTitle order={2} fz="lg" message="mfa.codes.title" />
      <MessageText fz="sm" message="mfa.codes.text" />
      <Paper withBorder p="md" bg="gray.0">
        <List listStyleType="none" spacing={4} ff="monospace" fz="md" style={{ columns: 2, columnGap: 24 }}>
          {codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </List>
      </Paper>
      <Group gap="xs">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" leftSection={<IconCopy size={14} />} onClick={copy}>
              <FormattedMessage id={copied ? 'mfa.codes.copied' : 'mfa.codes.copy'} />
            </Button>
          )}
        </CopyButton>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconDownload size={14} />}
          onClick={() => saveFile(`${text}\n`, 'streamhub-recovery-codes.txt')}
        >
          <FormattedMessage id="mfa.codes.download" />
        </Button>
      </Group>
      <Checkbox
        label={intl.formatMessage({ id: 'mfa.codes.saved' })}
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Button onClick={onDone} disabled={!saved}>
        <FormattedMessage id="mfa.codes.continue" />
      </Button>
    </Stack>
  );
}
