import { Button, Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../../i18n/message-id';
import { saveFile } from '../../lib/browser-actions';

export type ExportFormat = 'csv' | 'json';

/** The export answer as file text: the CSV text as it came (older HTTP clients wrap text as `{message}`), JSON re-serialised. */
export function exportText(body: unknown, format: ExportFormat): string {
  if (typeof body === 'string') return body;
  if (format === 'csv') {
    const message = (body as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : '';
  }
  return `${JSON.stringify(body ?? [], null, 2)}\n`;
}

interface ExportMenuProps {
  labels: { button: MessageId } & Record<ExportFormat, MessageId>;
  /** The formats in the order the menu offers them. */
  formats: readonly ExportFormat[];
  /** Fetches the export of what the list shows. */
  fetch: (format: ExportFormat) => Promise<unknown>;
  fileName: (format: ExportFormat) => string;
  onError: (error: Error) => void;
}

/** An Export button with a menu of formats: fetches the export, saves it under its file name, reports a failure. */
export function ExportMenu({ labels, formats, fetch, fileName, onError }: ExportMenuProps) {
  const [exporting, setExporting] = useState(false);
  const download = async (format: ExportFormat) => {
    setExporting(true);
    try {
      const text = exportText(await fetch(format), format);
      saveFile(text, fileName(format), format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json');
    } catch (error) {
      onError(error instanceof Error ? error : new Error(String(error)));
    } finally {
      setExporting(false);
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting}>
          <FormattedMessage id={labels.button} />
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {formats.map((format) => (
          <Menu.Item key={format} onClick={() => void download(format)}>
            <FormattedMessage id={labels[format]} />
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
