import { Button, Card, Code, Group, Select, Stack } from '@mantine/core';
import { IconCopy, IconTerminal2 } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { getDownloadTestScriptUrl } from '../../api/generated/endpoints/license-server/license-server';
import { useListMyLicenses } from '../../api/generated/endpoints/licenses/licenses';
import { myListParams } from './license-display';
import { copyText } from '../../lib/browser-actions';
import { MY_LICENSES } from './MyLicenses';
import { MessageText, MessageTitle } from '../../components/Message';

/** Folder and script inside the archive (server/src/modules/license-server/test-script-archive.ts). */
const SCRIPT_FOLDER = 'streamhub-license-test';
const SCRIPT_FILE = 'streamhub-license-test.mjs';
const KEY_PLACEHOLDER = '<LICENSE-KEY>';

/** Where streaming servers reach the portal: the API's origin (the page's own unless the API lives elsewhere). */
export function portalOrigin(): string {
  return new URL(import.meta.env.VITE_API_BASE_URL || '/', window.location.origin).origin;
}

/** The command that downloads and unpacks the test-script archive and runs it with a license key. */
export function testScriptCommand(origin: string, licenseKey: string): string {
  return [
    `curl -fsSL ${origin}${getDownloadTestScriptUrl()} | tar -xz`,
    `cd ${SCRIPT_FOLDER}`,
    `node ${SCRIPT_FILE} --url ${origin} --key ${licenseKey}`,
  ].join(' && ');
}

interface TestScriptCommandProps {
  onCopied: () => void;
  onError: (message: string) => void;
}

/** The test-script command with the key of one of the client's active licenses, and Copy Command. */
export function TestScriptCommand({ onCopied, onError }: TestScriptCommandProps) {
  const intl = useIntl();
  // The same query as My Licenses' first page, so no second request.
  const list = useListMyLicenses(myListParams(MY_LICENSES.defaults));
  const keys = (list.data?.data ?? []).filter((license) => license.status === 'active').map((license) => license.license_key);
  const [chosen, setChosen] = useState<string | null>(null);
  const key = chosen && keys.includes(chosen) ? chosen : (keys[0] ?? null);
  const command = testScriptCommand(portalOrigin(), key ?? KEY_PLACEHOLDER);

  const copy = async () => {
    try {
      await copyText(command);
      onCopied();
    } catch (error) {
      onError(intl.formatMessage({ id: 'licenses.errors.copy' }, { message: (error as Error).message }));
    }
  };

  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby="test-script-title">
      <Stack gap="sm">
        <Group gap="xs">
          <IconTerminal2 size={22} color="var(--mantine-color-violet-6)" aria-hidden />
          <MessageTitle order={2} fz="xl" id="test-script-title" message="licenses.testScript.title" />
        </Group>
        <MessageText fz="sm" c="dimmed" message="licenses.testScript.text" />
        {keys.length > 1 && (
          <Select
            label={intl.formatMessage({ id: 'licenses.testScript.license' })}
            data={keys}
            value={key}
            onChange={setChosen}
            allowDeselect={false}
            maw={420}
          />
        )}
        {!key && <MessageText fz="sm" c="dimmed" data-testid="test-script-no-license" message="licenses.testScript.noLicense" />}
        <Code block fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="test-script-command">
          {command}
        </Code>
        <Group>
          <Button size="sm" variant="light" leftSection={<IconCopy size={16} />} onClick={copy}>
            <FormattedMessage id="licenses.testScript.copy" />
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
