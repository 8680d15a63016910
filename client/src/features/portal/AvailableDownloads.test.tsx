import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientVersionDto, DistributionFileDto, DownloadLinkDto } from '../../api/generated/model';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { AvailableDownloads } from './AvailableDownloads';
import { DOWNLOADS_PAGE_SIZE } from './use-client-versions';
import { SuccessContent, SuccessDialog } from './SuccessDialog';

const HASH = 'ab'.repeat(32);
const SIGNED = 'http://portal.test/api/download/11/signed?expires=1750000000&user=7&signature=' + 'x'.repeat(43);

const file = (over: Partial<DistributionFileDto> = {}): DistributionFileDto => ({
  id: 11,
  file_name: 'streamhub_2.1.0_amd64.deb',
  file_hash: HASH,
  file_size: 300_000,
  os_type: 'linux',
  architecture: 'x64',
  version: '2.1.0',
  version_id: 1,
  is_latest: 1,
  download_count: 3,
  download_url: '/api/download/11',
  created_at: '2025-06-01T00:00:00.000Z',
  ...over,
});

const version = (over: Partial<ClientVersionDto> = {}): ClientVersionDto => ({
  id: 1,
  version: '2.1.0',
  is_latest: 1,
  is_stable: 1,
  channel: 'stable',
  state: 'published',
  release_date: '2025-06-01',
  changelog: 'Faster HLS packaging.\nNew SRT ingest.',
  has_files: true,
  access: { covered: false, renew: false, refusal: null },
  distribution_files: [
    file(),
    file({
      id: 12,
      os_type: 'windows',
      file_name: 'streamhub-2.1.0-win-x64.zip',
      file_size: 5 * 1024 * 1024 + 512 * 1024,
      download_count: 1,
    }),
  ],
  ...over,
});

const link = (over: Partial<DownloadLinkDto> = {}): DownloadLinkDto => ({
  url: SIGNED,
  expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
  file_name: 'streamhub_2.1.0_amd64.deb',
  file_size: 300_000,
  file_hash: HASH,
  download_command: `curl -fL --retry 3 -C - -o streamhub_2.1.0_amd64.deb '${SIGNED}' && echo '${HASH}  streamhub_2.1.0_amd64.deb' | sha256sum -c -`,
  install_command: `curl -fL --retry 3 -C - -o streamhub_2.1.0_amd64.deb '${SIGNED}' && echo '${HASH}  streamhub_2.1.0_amd64.deb' | sha256sum -c - && sudo apt install -y ./streamhub_2.1.0_amd64.deb`,
  ...over,
});

type Route = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

const pathOf = (url: string) => url.split('?')[0];

/** A page of `list` as the server answers it, for the page and limit the request asks. */
function pageOf(url: string, list: ClientVersionDto[]) {
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  const page = Number(query.get('page') ?? 1);
  const limit = Number(query.get('limit') ?? 10);
  const meta = { total: list.length, page, limit, pages: Math.max(1, Math.ceil(list.length / limit)) };
  return jsonResponse(200, { success: true, data: list.slice((page - 1) * limit, page * limit), meta });
}

function stubApi(versions: () => ClientVersionDto[] | Response, extra?: Route) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (pathOf(url) === '/api/client/versions') {
      const list = versions();
      return list instanceof Response ? list : pageOf(url, list);
    }
    return jsonResponse(404, { message: `no stub for ${url}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const onError = vi.fn();

/** The block with the dashboard's success dialog, as DashboardPage wires them. */
function Harness() {
  const [success, setSuccess] = useState<SuccessContent | null>(null);
  return (
    <>
      <AvailableDownloads onSuccess={setSuccess} onError={onError} />
      <SuccessDialog content={success} onClose={() => setSuccess(null)} />
    </>
  );
}

const calls = (fetchMock: ReturnType<typeof stubApi>, url: string, method = 'GET') =>
  fetchMock.mock.calls.filter(([called, init]) => pathOf(called) === url && (init?.method ?? 'GET') === method);

describe('Available Downloads', () => {
  beforeEach(() => {
    onError.mockReset();
    // Mantine's option list scrolls the active option into view; jsdom lacks it.
    Element.prototype.scrollIntoView ??= () => undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the first page of versions, newest first, and pages through the rest', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: DOWNLOADS_PAGE_SIZE + 2 }, (_, index) =>
      version({ id: index + 1, version: `2.${20 - index}.0`, is_latest: index === 0 ? 1 : 0, distribution_files: [], has_files: false }),
    );
    const fetchMock = stubApi(() => many);
    renderWithProviders(<Harness />);
    await screen.findByRole('heading', { name: 'Version 2.20.0 (Latest)' });
    expect(screen.getAllByTestId(/^version-\d/)).toHaveLength(DOWNLOADS_PAGE_SIZE);
    expect(screen.queryByRole('heading', { name: 'Version 2.9.0' })).toBeNull();
    expect(screen.getByText('Showing 1 to 10 of 12 versions')).toBeTruthy();
    expect(screen.getByTestId('page-indicator').textContent).toBe('Page 1 of 2');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Version 2.9.0' })).toBeTruthy();
    expect(screen.getAllByTestId(/^version-\d/).map((block) => block.dataset.testid)).toEqual(['version-2.10.0', 'version-2.9.0']);
    expect(screen.getByText('Showing 11 to 12 of 12 versions')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url).filter((url) => pathOf(url) === '/api/client/versions')).toEqual([
      '/api/client/versions?page=1&limit=10',
      '/api/client/versions?page=2&limit=10',
    ]);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('heading', { name: 'Version 2.20.0 (Latest)' })).toBeTruthy();
  });

  it('marks a version outside the stable channel with its channel, and a stable one with none', async () => {
    stubApi(() => [
      version({ id: 2, version: '4.4.0-beta.1', is_latest: 0, is_stable: 0, channel: 'beta' }),
      version({ id: 1, version: '4.3.0' }),
    ]);
    renderWithProviders(<Harness />);
    const beta = await screen.findByTestId('version-4.4.0-beta.1');
    expect(within(beta).getByTestId('version-channel').textContent).toBe('Beta');
    expect(within(screen.getByTestId('version-4.3.0')).queryByTestId('version-channel')).toBeNull();
  });

  it('shows no pager while every version fits on one page', async () => {
    stubApi(() => Array.from({ length: DOWNLOADS_PAGE_SIZE }, (_, index) => version({ id: index + 1, version: `3.${index}.0` })));
    renderWithProviders(<Harness />);
    await screen.findByTestId('version-3.0.0');
    expect(screen.getAllByTestId(/^version-\d/)).toHaveLength(DOWNLOADS_PAGE_SIZE);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });

  it("says 'No downloads available' and to contact support when there are no versions", async () => {
    stubApi(() => []);
    renderWithProviders(<Harness />);
    const empty = await screen.findByTestId('downloads-empty');
    expect(within(empty).getByText('No downloads available')).toBeTruthy();
    expect(within(empty).getByText('Contact support to get access to downloads')).toBeTruthy();
  });

  it('shows each version with (Latest), changelog or no description, release date, and file buttons with OS, architecture, size and count', async () => {
    // In the server's order: the latest first, then by release date.
    stubApi(() => [
      version(),
      version({
        id: 2,
        version: '1.0.0',
        is_latest: 0,
        is_stable: 0,
        channel: 'beta',
        changelog: null,
        has_files: false,
        distribution_files: [],
        release_date: '2024-12-31',
      }),
    ]);
    renderWithProviders(<Harness />);
    const latest = await screen.findByTestId('version-2.1.0');
    const blocks = screen.getAllByRole('article');
    expect(blocks[0]).toBe(latest);
    expect(within(latest).getByRole('heading', { name: 'Version 2.1.0 (Latest)' })).toBeTruthy();
    expect(within(latest).queryByTestId('version-channel')).toBeNull();
    expect(within(latest).getByTestId('version-changelog').textContent).toBe('Faster HLS packaging.\nNew SRT ingest.');
    expect(within(latest).getByText('Released Jun 1, 2025')).toBeTruthy();
    const deb = within(latest).getByRole('button', { name: /^Download Linux · x64 \(64-bit\)/ });
    expect(deb.textContent).toContain('293.0 KB · 3 downloads');
    expect(deb.textContent).toContain('streamhub_2.1.0_amd64.deb');
    const zip = within(latest).getByRole('button', { name: /^Download Windows · x64 \(64-bit\)/ });
    expect(zip.textContent).toContain('5.5 MB · 1 download');
    expect(within(latest).getByRole('button', { name: 'Copy Command' })).toBeTruthy();

    const old = screen.getByTestId('version-1.0.0');
    // A beta is marked as one, not shown as an ordinary download.
    expect(within(old).getByRole('heading', { name: 'Version 1.0.0 Beta' })).toBeTruthy();
    expect(within(old).getByText('No description available')).toBeTruthy();
    expect(within(old).getByText('Released Dec 31, 2024')).toBeTruthy();
    expect(within(old).getByText('No downloads available yet')).toBeTruthy();
    expect(within(old).getByText('Files will be available soon')).toBeTruthy();
    expect(within(old).queryByRole('button')).toBeNull();
  });

  it("says why a release is refused, with its files' buttons disabled, and marks one a renewal covers", async () => {
    const fetchMock = stubApi(() => [
      version({
        id: 2,
        version: '2.2.0-beta.1',
        is_latest: 0,
        is_stable: 0,
        channel: 'beta',
        access: { covered: false, renew: false, refusal: 'CHANNEL_NOT_GRANTED' },
      }),
      version({ access: { covered: false, renew: true, refusal: null } }),
    ]);
    renderWithProviders(<Harness />);
    const beta = await screen.findByTestId('version-2.2.0-beta.1');
    expect(within(beta).getByTestId('version-access-note').textContent).toBe(
      'This Beta release is for customers whose license includes the Beta channel. Ask the vendor for access.',
    );
    for (const button of within(beta).getAllByRole('button', { name: /^Download / })) expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(within(beta).queryByTestId('linux-install')).toBeNull();

    const renew = screen.getByTestId('version-2.1.0');
    expect(within(renew).getByTestId('version-renew').textContent).toBe('Renew to get');
    expect(within(renew).getByTestId('version-access-note').textContent).toBe(
      'Your licenses’ updates ended before this release was published: renew a license to run it.',
    );
    // A stable release stays open to try: its files download.
    for (const button of within(renew).getAllByRole('button', { name: /^Download / })) expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(within(renew).getByTestId('linux-install')).toBeTruthy();
    expect(calls(fetchMock, '/api/client/versions')).toHaveLength(1);
  });

  it('downloads through a signed link that the browser fetches itself, says Download Started, and counts it', async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi(
      () => [version({ distribution_files: [file({ download_count: 3 })] })],
      (url, init) => {
        if (url === '/api/download/11/link' && init.method === 'POST') return jsonResponse(200, { success: true, data: link() });
      },
    );
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderWithProviders(<Harness />);
    await user.click(await screen.findByRole('button', { name: /^Download Linux/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Download Started' });
    expect(
      within(dialog).getByText('streamhub_2.1.0_amd64.deb (293.0 KB) is being downloaded. Your browser shows the progress.'),
    ).toBeTruthy();
    expect(within(dialog).getByTestId('download-sha256').textContent).toBe(HASH);
    expect(clicked).toEqual([{ href: SIGNED, download: 'streamhub_2.1.0_amd64.deb' }]);
    // The file itself never goes through fetch (no buffering in JavaScript).
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/download/11') && !String(url).endsWith('/link'))).toBe(false);
    // The count shows the download at once, without reading the list again.
    expect(screen.getByRole('button', { name: /^Download Linux/ }).textContent).toContain('4 downloads');
    expect(calls(fetchMock, '/api/client/versions')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    // While it fades out, the dialog keeps its title and so its name (a nameless dialog fails axe's check).
    expect(screen.getByRole('dialog', { name: 'Download Started' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('starts every download when a second file is clicked before the first link arrives', async () => {
    const user = userEvent.setup();
    const pending: Array<() => void> = [];
    stubApi(
      () => [version()],
      (url, init) => {
        const id = /^\/api\/download\/(\d+)\/link$/.exec(url)?.[1];
        if (!id || init.method !== 'POST') return undefined;
        // Each link answer waits until the test lets it through.
        return new Promise<Response>((resolve) =>
          pending.push(() =>
            resolve(jsonResponse(200, { success: true, data: link({ url: `${SIGNED}-${id}`, file_name: `file-${id}` }) })),
          ),
        );
      },
    );
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderWithProviders(<Harness />);
    await user.click(await screen.findByRole('button', { name: /^Download Linux/ }));
    await user.click(screen.getByRole('button', { name: /^Download Windows/ }));
    await waitFor(() => expect(pending).toHaveLength(2));
    pending.forEach((release) => release());
    await waitFor(() => expect(clicked.sort()).toEqual(['file-11', 'file-12']));
  });

  it('shows a failed download as it is, and asks to log in when the session is gone', async () => {
    const user = userEvent.setup();
    let status = 404;
    stubApi(
      () => [version()],
      (url) =>
        url === '/api/download/11/link'
          ? jsonResponse(status, { statusCode: status, message: status === 404 ? 'File 11 not found' : 'Unauthorized' })
          : undefined,
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderWithProviders(<Harness />);
    await user.click(await screen.findByRole('button', { name: /^Download Linux/ }));
    await waitFor(() => expect(onError).toHaveBeenCalledWith('Failed to download: File 11 not found'));
    status = 401;
    await user.click(screen.getByRole('button', { name: /^Download Linux/ }));
    await waitFor(() => expect(onError).toHaveBeenLastCalledWith('Authentication required for downloads.'));
    expect(click).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("copies the server's install command for the chosen Linux package, shows it with its validity, and says Command Copied", async () => {
    const user = userEvent.setup();
    // user-event gives jsdom a clipboard; jsdom has no ClipboardItem, so the text is written once it arrives.
    const rpmLink = link({
      file_name: 'streamhub-2.1.0.x86_64.rpm',
      install_command: 'curl … && sudo dnf install -y ./streamhub-2.1.0.x86_64.rpm',
    });
    const fetchMock = stubApi(
      () => [
        version({
          distribution_files: [file(), file({ id: 13, file_name: 'streamhub-2.1.0.x86_64.rpm' })],
        }),
      ],
      (url, init) => {
        if (init.method !== 'POST') return undefined;
        if (url === '/api/download/11/link') return jsonResponse(200, { success: true, data: link() });
        if (url === '/api/download/13/link') return jsonResponse(200, { success: true, data: rpmLink });
      },
    );
    renderWithProviders(<Harness />);
    const install = await screen.findByTestId('linux-install');
    expect(within(install).queryByTestId('install-command')).toBeNull();
    await user.click(within(install).getByRole('button', { name: 'Copy Command' }));

    const dialog = await screen.findByRole('dialog', { name: 'Command Copied' });
    expect(within(dialog).getByText('Paste it into a terminal on your Linux server to install streamhub_2.1.0_amd64.deb.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(link().install_command);
    expect(within(install).getByTestId('install-command').textContent).toBe(link().install_command);
    expect(within(install).getByTestId('install-command-validity').textContent).toMatch(/works until .* \(15 minutes\)/);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));

    // Another package of the same version: its own link and command.
    await user.click(within(install).getByRole('combobox', { name: 'Package' }));
    await user.click(await screen.findByRole('option', { name: /streamhub-2\.1\.0\.x86_64\.rpm/, hidden: true }));
    await user.click(within(install).getByRole('button', { name: 'Copy Command' }));
    await screen.findByRole('dialog', { name: 'Command Copied' });
    expect(await navigator.clipboard.readText()).toBe(rpmLink.install_command);
    expect(calls(fetchMock, '/api/download/13/link', 'POST')).toHaveLength(1);
  });

  it('falls back to /api/versions when the client list fails', async () => {
    const fetchMock = stubApi(
      () => jsonResponse(500, { message: 'Database unavailable' }),
      (url) => (pathOf(url) === '/api/versions' ? pageOf(url, [version()]) : undefined),
    );
    renderWithProviders(<Harness />);
    expect(await screen.findByRole('heading', { name: 'Version 2.1.0 (Latest)' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls(fetchMock, '/api/versions')).toHaveLength(1);
  });

  it('shows why the versions could not be loaded when both lists fail, with Retry', async () => {
    const fetchMock = stubApi(
      () => jsonResponse(500, { message: 'Database unavailable' }),
      (url) => (pathOf(url) === '/api/versions' ? jsonResponse(503, { message: 'Service Unavailable' }) : undefined),
    );
    renderWithProviders(<Harness />);
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load dashboard data: Database unavailable');
    expect(calls(fetchMock, '/api/versions')).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls(fetchMock, '/api/client/versions')).toHaveLength(2));
  });
});
