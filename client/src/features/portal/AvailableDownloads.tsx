import { Badge, Button, Code, Group, Paper, Select, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  IconBrandApple,
  IconBrandWindows,
  IconCloudDownload,
  IconCloudOff,
  IconCopy,
  IconLock,
  IconPackage,
  IconTerminal2,
} from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useCreateDownloadLink } from '../../api/generated/endpoints/downloads/downloads';
import type { ClientVersionDto, DistributionFileDto, DownloadLinkDto, OsType } from '../../api/generated/model';
import { EmptyState } from '../../components/admin-list/ListFrame';
import { PagerBar } from '../../components/PagerBar';
import { pageRange } from '../../components/pagination';
import { formatBytes } from '../../i18n/format';
import { copyTextWhenReady, startDownload } from '../../lib/browser-actions';
import { DashboardSection } from './DashboardSection';
import { commandCopiedContent, downloadStartedContent } from './download-success';
import {
  ARCHITECTURE_LABEL,
  browserOs,
  downloadFailure,
  linuxFiles,
  minutesLeft,
  OS_LABEL,
  releaseDay,
  sortFiles,
} from './download-display';
import type { SuccessContent } from './SuccessDialog';
import { DOWNLOADS_PAGE_SIZE, useClientVersionPage } from './use-client-versions';
import { Changelog } from '../../components/Changelog';
import { WARNING_TEXT } from '../../components/license-server/sync-display';
import { MessageText, MessageTitle } from '../../components/Message';

interface AvailableDownloadsProps {
  onSuccess: (content: SuccessContent) => void;
  onError: (message: string) => void;
}

function OsIcon({ os }: { os: OsType }) {
  const Icon = os === 'windows' ? IconBrandWindows : os === 'macos' ? IconBrandApple : IconTerminal2;
  return <Icon size={22} aria-hidden />;
}

interface FileButtonProps {
  file: DistributionFileDto;
  loading: boolean;
  /** The customer's licenses do not allow the release: the reason is shown above the files. */
  refused: boolean;
  onDownload: () => void;
}

function FileButton({ file, loading, refused, onDownload }: FileButtonProps) {
  const intl = useIntl();
  return (
    <Button
      disabled={refused}
      variant="default"
      h="auto"
      py="xs"
      px="sm"
      fullWidth
      justify="flex-start"
      leftSection={<OsIcon os={file.os_type} />}
      loading={loading}
      onClick={onDownload}
      // Three lines of text: the label may wrap and grow (Mantine's button is one clipped line by default).
      styles={{
        label: { display: 'block', whiteSpace: 'normal', textAlign: 'left', minWidth: 0, overflow: 'visible', lineHeight: 1.45 },
        inner: { justifyContent: 'flex-start' },
      }}
      data-testid={`download-file-${file.id}`}
    >
      <VisuallyHidden>
        <FormattedMessage id="dashboard.downloads.download" />{' '}
      </VisuallyHidden>
      <Text span display="block" fz="sm" fw={600} lh="inherit">
        <FormattedMessage id={OS_LABEL[file.os_type]} /> · <FormattedMessage id={ARCHITECTURE_LABEL[file.architecture]} />
      </Text>
      <Text span display="block" fz="xs" c="dimmed" lh="inherit" data-testid="file-meta">
        <FormattedMessage
          id="dashboard.downloads.fileMeta"
          values={{ size: formatBytes(file.file_size, intl.locale), count: file.download_count }}
        />
      </Text>
      <Text span display="block" fz="xs" c="dimmed" lh="inherit" style={{ overflowWrap: 'anywhere' }}>
        {file.file_name}
      </Text>
    </Button>
  );
}

/** The Auto-install command for a version's Linux files: Copy Command makes a signed link and copies the server's command. */
function LinuxInstall({ files, onSuccess, onError }: { files: DistributionFileDto[] } & AvailableDownloadsProps) {
  const intl = useIntl();
  const [chosen, setChosen] = useState<string | null>(null);
  const file = files.find((candidate) => String(candidate.id) === chosen) ?? files[0];
  const [made, setMade] = useState<{ fileId: number; link: DownloadLinkDto; at: number } | null>(null);
  const createLink = useCreateDownloadLink();
  const shown = made?.fileId === file.id ? made : null;
  const commandOf = (link: DownloadLinkDto) => link.install_command ?? link.download_command;

  const copy = async () => {
    const request = createLink.mutateAsync({ id: file.id }).then((response) => response.data);
    try {
      await copyTextWhenReady(request.then(commandOf));
    } catch (error) {
      const link = await request.catch(() => null);
      if (!link) return onError(downloadFailure(intl, error, 'dashboard.downloads.errors.command'));
      // The command exists but the clipboard refused it: show it to copy by hand, and say why.
      setMade({ fileId: file.id, link, at: Date.now() });
      return onError(intl.formatMessage({ id: 'licenses.errors.copy' }, { message: (error as Error).message }));
    }
    const link = await request;
    setMade({ fileId: file.id, link, at: Date.now() });
    onSuccess(commandCopiedContent(link));
  };

  return (
    <Stack gap="xs" data-testid="linux-install">
      <Group gap="xs">
        <IconPackage size={18} color="var(--mantine-color-violet-7)" aria-hidden />
        <MessageTitle order={4} fz="sm" message="dashboard.downloads.install.title" />
      </Group>
      <MessageText fz="sm" c="dimmed" message="dashboard.downloads.install.text" />
      <Group align="flex-end" gap="sm">
        {files.length > 1 && (
          <Select
            label={intl.formatMessage({ id: 'dashboard.downloads.install.file' })}
            data={files.map((candidate) => ({
              value: String(candidate.id),
              label: `${candidate.file_name} (${intl.formatMessage({ id: ARCHITECTURE_LABEL[candidate.architecture] })})`,
            }))}
            value={String(file.id)}
            onChange={setChosen}
            allowDeselect={false}
            w={{ base: '100%', xs: 360 }}
          />
        )}
        <Button variant="light" leftSection={<IconCopy size={16} />} loading={createLink.isPending} onClick={copy}>
          <FormattedMessage id="dashboard.downloads.install.copy" />
        </Button>
      </Group>
      {shown && (
        <>
          <Code block fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="install-command">
            {commandOf(shown.link)}
          </Code>
          {!shown.link.install_command && <MessageText fz="xs" c="dimmed" message="dashboard.downloads.install.downloadOnly" />}
          <Text fz="xs" c="dimmed" data-testid="install-command-validity">
            <FormattedMessage
              id="dashboard.downloads.install.validUntil"
              values={{
                time: intl.formatDate(shown.link.expires_at, { dateStyle: 'medium', timeStyle: 'short' }),
                minutes: minutesLeft(shown.link.expires_at, shown.at),
              }}
            />
          </Text>
        </>
      )}
    </Stack>
  );
}

/**
 * What the customer's licenses say of a release they cannot run or download as they are: the refusal's reason (the
 * server's 403 would say the same), or that a renewal covers it. Nothing for a release they may have.
 */
function ReleaseAccessNote({ version }: { version: ClientVersionDto }) {
  const intl = useIntl();
  const { refusal, renew } = version.access;
  if (!refusal && !renew) return null;
  const message = refusal ? (`dashboard.downloads.refusal.${refusal}` as const) : 'dashboard.downloads.renewNote';
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="version-access-note">
      <IconLock size={16} color={WARNING_TEXT} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Text fz="sm" c={WARNING_TEXT}>
        <FormattedMessage
          id={message}
          values={{
            channel: version.channel === 'stable' ? '' : intl.formatMessage({ id: `dashboard.downloads.channel.${version.channel}` }),
          }}
        />
      </Text>
    </Group>
  );
}

interface VersionBlockProps extends AvailableDownloadsProps {
  version: ClientVersionDto;
  preferredOs: OsType | null;
  pendingFileId: number | null;
  onDownload: (file: DistributionFileDto) => void;
}

function VersionBlock({ version, preferredOs, pendingFileId, onDownload, onSuccess, onError }: VersionBlockProps) {
  const intl = useIntl();
  const files = sortFiles(version.distribution_files, preferredOs);
  const linux = linuxFiles(version.distribution_files);
  const day = releaseDay(version.release_date);
  const titleId = `version-${version.id}-title`;

  return (
    <Paper withBorder radius="md" p="md" component="article" aria-labelledby={titleId} data-testid={`version-${version.version}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={3} fz="lg" id={titleId}>
            <FormattedMessage id="dashboard.downloads.version" values={{ version: version.version }} />
            {version.is_latest === 1 && (
              <>
                {' '}
                <MessageText span inherit c="teal.9" data-testid="version-latest" message="dashboard.downloads.latest" />
              </>
            )}
            {version.access.renew && (
              <>
                {' '}
                <Badge color="orange" variant="light" c={WARNING_TEXT} style={{ verticalAlign: 'middle' }} data-testid="version-renew">
                  <FormattedMessage id="dashboard.downloads.renewToGet" />
                </Badge>
              </>
            )}
            {/* A prerelease is marked, so it is not taken for an ordinary download. */}
            {version.channel !== 'stable' && (
              <>
                {' '}
                <Badge color="yellow" variant="light" c={WARNING_TEXT} style={{ verticalAlign: 'middle' }} data-testid="version-channel">
                  <FormattedMessage id={`dashboard.downloads.channel.${version.channel}`} />
                </Badge>
              </>
            )}
          </Title>
          <Text fz="sm" c="dimmed" data-testid="version-released">
            <FormattedMessage
              id="dashboard.downloads.released"
              values={{ date: day ? intl.formatDate(day, { dateStyle: 'medium', timeZone: 'UTC' }) : version.release_date }}
            />
          </Text>
        </Group>
        <ReleaseAccessNote version={version} />
        {version.changelog?.trim() ? (
          <Changelog text={version.changelog} testId="version-changelog" />
        ) : (
          <MessageText fz="sm" c="dimmed" fs="italic" data-testid="version-changelog" message="dashboard.downloads.noDescription" />
        )}
        {files.length === 0 ? (
          <Stack gap={2} align="center" ta="center" p="sm" data-testid="version-no-files">
            <MessageText fw={600} fz="sm" message="dashboard.downloads.noFiles.title" />
            <MessageText fz="sm" c="dimmed" message="dashboard.downloads.noFiles.text" />
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            {files.map((file) => (
              <FileButton
                key={file.id}
                file={file}
                loading={pendingFileId === file.id}
                refused={!!version.access.refusal}
                onDownload={() => onDownload(file)}
              />
            ))}
          </SimpleGrid>
        )}
        {linux.length > 0 && !version.access.refusal && <LinuxInstall files={linux} onSuccess={onSuccess} onError={onError} />}
      </Stack>
    </Paper>
  );
}

/**
 * Available Downloads: a page of versions with their files, and a pager below when there is more than one page. A
 * file downloads through a signed link that the browser fetches itself (never buffered in JavaScript); its shown
 * count goes up at once.
 */
export function AvailableDownloads({ onSuccess, onError }: AvailableDownloadsProps) {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const { versions, meta, loading, error, retry, countDownload } = useClientVersionPage(page);
  const preferredOs = useMemo(() => browserOs(navigator.userAgent), []);
  const createLink = useCreateDownloadLink();
  const section = useRef<HTMLDivElement>(null);
  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? DOWNLOADS_PAGE_SIZE, meta?.total ?? 0);

  // Versions removed since the pager was drawn: go to the last page there is, not an empty one.
  if (meta && meta.total > 0 && page > meta.pages) setPage(meta.pages);

  const turnTo = (next: number) => {
    setPage(next);
    // The pager sits below a tall list: the new page starts at the section's title.
    section.current?.scrollIntoView({ block: 'start' });
  };

  // mutateAsync, not per-call callbacks: TanStack Query runs those only for the latest call, so a second click
  // while the first link is on its way would otherwise drop the first download.
  const download = async (file: DistributionFileDto) => {
    try {
      const { data: link } = await createLink.mutateAsync({ id: file.id });
      startDownload(link.url, link.file_name);
      countDownload(file.id);
      onSuccess(downloadStartedContent(link, intl.locale));
    } catch (failure) {
      onError(downloadFailure(intl, failure, 'dashboard.downloads.errors.download'));
    }
  };

  return (
    <DashboardSection
      ref={section}
      id="available-downloads"
      icon={IconCloudDownload}
      title="dashboard.downloads.title"
      subtitle="dashboard.downloads.subtitle"
      data-testid="available-downloads"
      // A new page scrolls the title into view below the fixed header, not under it.
      style={{ scrollMarginTop: 'calc(var(--app-shell-header-height, 0px) + var(--mantine-spacing-md))' }}
      rows={{ loading, error, retry, empty: versions.length === 0 }}
      empty={
        <EmptyState
          icon={IconCloudOff}
          title="dashboard.downloads.empty.title"
          hint="dashboard.downloads.empty.text"
          testId="downloads-empty"
        />
      }
    >
      {versions.map((version) => (
        <VersionBlock
          key={version.id}
          version={version}
          preferredOs={preferredOs}
          pendingFileId={createLink.isPending ? (createLink.variables?.id ?? null) : null}
          onDownload={download}
          onSuccess={onSuccess}
          onError={onError}
        />
      ))}
      {meta && (
        <PagerBar
          page={meta.page}
          pages={meta.pages}
          onPage={turnTo}
          withEdges={meta.pages > 2}
          summary={<FormattedMessage id="dashboard.downloads.showing" values={{ from, to, total: meta.total }} />}
        />
      )}
    </DashboardSection>
  );
}
