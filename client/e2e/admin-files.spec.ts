import { expect, Locator, Page, test } from '@playwright/test';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  adminToken,
  createVersionByApi,
  fitsViewport,
  loginAsAdmin,
  recordListSearches,
  typeQuickly,
  unexplainedSearches,
  seriousAxeViolations,
  uploadFileByApi,
} from './support/portal';

const ALLOWED = 'File type not allowed. Allowed types: .exe, .dmg, .pkg, .tar.gz, .zip, .deb, .rpm';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A version with its own small archive, as the Versions screen would upload it. */
const createVersion = (page: Page, token: string, version: string) =>
  createVersionByApi(
    page,
    token,
    { version, release_date: '2025-06-01', changelog: `Browser test build ${version}` },
    { name: `streamhub-${version}.zip`, buffer: randomBytes(512) },
  );

async function deleteFileByApi(page: Page, token: string, id: number) {
  await page.request.delete(`/api/admin/distribution-files/${id}`, { headers: { Authorization: `Bearer ${token}` } });
}

/** The number a stat card shows (thousands separators removed). */
async function stat(page: Page, key: 'files' | 'downloads' | 'size' | 'platforms'): Promise<string> {
  const card = page.getByTestId(`file-stat-${key}`);
  await expect(card).toBeVisible();
  return (await card.innerText()).trim();
}
const count = (text: string) => Number(text.replace(/[^\d]/g, ''));

/** The option of a version: v{version}, then marks and date, never a longer version number. */
const versionOption = (version: string) => new RegExp(`^v${version.replace(/\./g, '\\.')}( |$)`);

const table = (page: Page) => page.getByTestId('files-table');
const rowNamed = (page: Page, name: string) => table(page).locator('tbody tr', { hasText: name });

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, scope: Page | Locator, label: string, option: string | RegExp) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Waits for the next file-list request that carries these query parameters (the filter runs on the server). */
function listRequest(page: Page, params: Record<string, string | null>) {
  return page.waitForRequest((request) => {
    const url = new URL(request.url());
    if (url.pathname !== '/api/admin/distribution-files' || request.method() !== 'GET') return false;
    return Object.entries(params).every(([key, value]) => url.searchParams.get(key) === value);
  });
}

test.describe('File Management', () => {
  let token: string;
  let marker: string;
  let versionA: { id: number; version: string };
  let versionB: { id: number; version: string };
  let otherFile: { id: number; file_name: string };

  test.beforeEach(async ({ page }) => {
    marker = randomBytes(4).toString('hex');
    token = await adminToken(page);
    const minor = randomInt(100, 999_999);
    versionA = await createVersion(page, token, `8.${minor}.1`);
    versionB = await createVersion(page, token, `8.${minor}.2`);
    otherFile = await uploadFileByApi(page, token, {
      version_id: versionB.id,
      os_type: 'windows',
      architecture: 'x64',
      name: `other-${marker}-setup.exe`,
      bytes: randomBytes(3000),
    });
    await loginAsAdmin(page);
    await page.getByRole('link', { name: 'Files' }).first().click();
    await expect(page).toHaveURL(/\/secret-admin\/files$/);
    await expect(page.getByRole('heading', { name: 'File Management' })).toBeVisible();
    await expect(page.getByText('Manage distribution files and downloads')).toBeVisible();
    await expect(table(page)).toBeVisible();
    await page.mouse.move(0, 0);
  });

  test.afterEach(async ({ page }) => {
    await deleteFileByApi(page, token, otherFile.id);
  });

  test('uploads a Linux x64 .deb, shows it with the stats, filters it on the server, refuses a .txt and deletes it', async ({ page }) => {
    const filesBefore = count(await stat(page, 'files'));
    const sizeBefore = await stat(page, 'size');
    const bytes = randomBytes(2048);
    const name = `streamhub-${marker}_amd64.deb`;

    // Empty submit: every required field says so, nothing is sent.
    await page.getByRole('button', { name: 'Upload File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Distribution File' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(/Supported types: \.exe, \.dmg, \.pkg, \.tar\.gz, \.zip, \.deb, \.rpm/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText('Please select a file.')).toBeVisible();
    await expect(dialog.getByText('Version is required')).toBeVisible();
    await expect(dialog.getByText('Operating system is required')).toBeVisible();
    await expect(dialog.getByText('Architecture is required')).toBeVisible();

    // The real upload through the form.
    await choose(page, dialog, 'Version', versionOption(versionA.version));
    await choose(page, dialog, 'Operating System', 'Linux');
    await choose(page, dialog, 'Architecture', 'x64');
    await dialog.locator('input[type="file"]').setInputFiles({ name, mimeType: 'application/vnd.debian.binary-package', buffer: bytes });
    await expect(dialog.getByText('Please select a file.')).toHaveCount(0);
    await expect(dialog.getByTestId('files-selected-size')).toHaveText(`Selected: ${name} (2.00 KB)`);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: `File ${name} uploaded successfully` })).toBeVisible();

    const row = rowNamed(page, name);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(sha256(bytes).slice(0, 12));
    await expect(row).not.toContainText(sha256(bytes).slice(0, 13));
    await expect(row).toContainText(`v${versionA.version}`);
    await expect(row.getByTestId('file-os')).toHaveText('Linux');
    await expect(row.getByTestId('file-arch')).toHaveText('x64');
    await expect(row.getByTestId('file-size')).toHaveText('2.00 KB');
    await expect(row.getByTestId('file-downloads')).toHaveText('0');
    await expect.poll(async () => count(await stat(page, 'files'))).toBe(filesBefore + 1);
    await expect.poll(() => stat(page, 'size')).not.toBe(sizeBefore);
    await expect(page.getByTestId('file-stat-by-os')).toContainText('Linux');
    await page.screenshot({ path: '/tmp/files-uploaded.png', fullPage: true });

    // Version filter, on the server: version A holds our .deb, version B the other admin's .exe.
    let request = listRequest(page, { version_id: String(versionA.id) });
    await choose(page, page, 'Version', versionOption(versionA.version));
    await request;
    await expect(rowNamed(page, name)).toHaveCount(1);
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(0);
    await expect(page.getByTestId('files-showing')).toHaveText('Showing 1 to 1 of 1 files');
    request = listRequest(page, { version_id: String(versionB.id) });
    await choose(page, page, 'Version', versionOption(versionB.version));
    await request;
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(1);
    await expect(rowNamed(page, name)).toHaveCount(0);

    // Platform filter, on the server, within version B and then within both versions through the search.
    request = listRequest(page, { version_id: String(versionB.id), os_type: 'linux' });
    await choose(page, page, 'Platform', 'Linux');
    await request;
    await expect(page.getByTestId('files-empty')).toContainText('No files found');
    await choose(page, page, 'Version', 'All Versions');
    request = listRequest(page, { search: marker, os_type: 'linux' });
    await page.getByRole('textbox', { name: 'Search files' }).fill(marker);
    await request;
    await expect(rowNamed(page, name)).toHaveCount(1);
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(0);
    request = listRequest(page, { search: marker, os_type: 'windows' });
    await choose(page, page, 'Platform', 'Windows');
    await request;
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(1);
    await expect(rowNamed(page, name)).toHaveCount(0);
    await choose(page, page, 'Platform', 'All Platforms');
    await expect(page.getByTestId('files-showing')).toHaveText('Showing 1 to 2 of 2 files');

    // Sorting by size goes to the server and is announced on the header.
    request = listRequest(page, { sort: 'file_size', order: 'asc' });
    await page.getByRole('columnheader', { name: 'Size' }).getByRole('button').click();
    await request;
    await expect(page.getByRole('columnheader', { name: 'Size' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(table(page).locator('tbody tr').first()).toContainText(name);

    // A refused type: refused with the spec's message before anything is sent, and nothing is added.
    const uploads: string[] = [];
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && sent.url().endsWith('/api/admin/distribution-files')) uploads.push(sent.url());
    });
    await page.getByRole('button', { name: 'Upload File' }).click();
    const again = page.getByRole('dialog', { name: 'Upload Distribution File' });
    await choose(page, again, 'Version', versionOption(versionA.version));
    await choose(page, again, 'Operating System', 'Linux');
    await choose(page, again, 'Architecture', 'x64');
    await again
      .locator('input[type="file"]')
      .setInputFiles({ name: `notes-${marker}.txt`, mimeType: 'text/plain', buffer: Buffer.from('not a build') });
    await again.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(again.getByText(ALLOWED)).toBeVisible();
    // A custom name does not hide the original's type: the server refuses by both names, so the form does too.
    const customName = again.getByRole('textbox', { name: 'Custom File Name (optional)' });
    await again
      .locator('input[type="file"]')
      .setInputFiles({ name: `firmware-${marker}.bin`, mimeType: 'application/octet-stream', buffer: randomBytes(256) });
    await customName.fill(`x-${marker}.deb`);
    await expect(again.getByText(ALLOWED)).toHaveCount(0);
    await again.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(again.getByText(ALLOWED)).toHaveCount(1);
    expect(uploads).toEqual([]);
    await expect(customName).not.toHaveAttribute('aria-invalid', 'true');
    // And the other way round: an allowed file under a custom name of a refused type.
    await again
      .locator('input[type="file"]')
      .setInputFiles({ name: `firmware-${marker}.deb`, mimeType: 'application/octet-stream', buffer: randomBytes(256) });
    await customName.fill(`x-${marker}.bin`);
    await again.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(again.getByText(ALLOWED)).toHaveCount(1);
    await expect(customName).toHaveAttribute('aria-invalid', 'true');
    expect(uploads).toEqual([]);
    await again.getByRole('button', { name: 'Cancel' }).click();
    await expect(again).toHaveCount(0);
    await expect(page.getByTestId('files-showing')).toHaveText('Showing 1 to 2 of 2 files');
    await expect(rowNamed(page, `notes-${marker}.txt`)).toHaveCount(0);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(async () => count(await stat(page, 'files'))).toBe(filesBefore + 1);

    // Delete with the confirmation: gone from the table, and the stats go back.
    await rowNamed(page, name)
      .getByRole('button', { name: `Delete file ${name}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete File' });
    await expect(confirm).toContainText('Are you sure you want to delete this file? This action cannot be undone.');
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Delete File' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'File deleted successfully' })).toBeVisible();
    await expect(rowNamed(page, name)).toHaveCount(0);
    await expect(page.getByTestId('files-showing')).toHaveText('Showing 1 to 1 of 1 files');
    await expect.poll(async () => count(await stat(page, 'files'))).toBe(filesBefore);
    await expect.poll(() => stat(page, 'size')).toBe(sizeBefore);
  });

  test('sends one search request, with the whole term, for a term typed quickly (300 ms debounce)', async ({ page }) => {
    const searches = recordListSearches(page, '/api/admin/distribution-files');
    const term = `other-${marker}`;
    const box = page.getByRole('textbox', { name: 'Search files' });
    await box.click();
    const answered = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/admin/distribution-files' && url.searchParams.get('search') === term;
    });
    const paused = await typeQuickly(box, term);
    await answered;
    await expect(page.getByTestId('files-showing')).toHaveText('Showing 1 to 1 of 1 files');
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(1);
    expect(searches.filter((search) => search === term)).toHaveLength(1);
    expect(unexplainedSearches(searches, term, paused)).toEqual([]);
  });

  test('only warns on the console about a file over 100 MB, and still sends it', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    // Sparse files: 100 MB exactly, and one byte more.
    const dir = mkdtempSync(join(tmpdir(), 'files-large-'));
    const limit = join(dir, `limit-${marker}.zip`);
    const large = join(dir, `large-${marker}.zip`);
    writeFileSync(limit, '');
    truncateSync(limit, 104_857_600);
    writeFileSync(large, '');
    truncateSync(large, 104_857_601);
    // Proving that the upload goes out is enough: it is stopped at the door, so nothing that big is stored.
    const sent: string[] = [];
    await page.route('**/api/admin/distribution-files', (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent.push(route.request().url());
      return route.abort('failed');
    });
    try {
      await page.getByRole('button', { name: 'Upload File' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upload Distribution File' });
      await choose(page, dialog, 'Version', versionOption(versionA.version));
      await choose(page, dialog, 'Operating System', 'macOS');
      await choose(page, dialog, 'Architecture', 'arm64');
      const network = dialog.getByRole('alert').filter({ hasText: 'Network error: Unable to connect to server.' });

      await dialog.locator('input[type="file"]').setInputFiles(limit);
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await expect(network).toBeVisible();
      expect(sent).toHaveLength(1);
      expect(warnings.filter((text) => text.startsWith('Large upload'))).toEqual([]);

      await dialog.locator('input[type="file"]').setInputFiles(large);
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await expect.poll(() => sent.length).toBe(2);
      await expect(network).toBeVisible();
      expect(warnings.filter((text) => text.startsWith('Large upload'))).toEqual([`Large upload: large-${marker}.zip (104857601 bytes)`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('has no serious accessibility violations with data and with the upload modal open, on desktop and phone', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/files-desktop.png', fullPage: true });

    await page.getByRole('button', { name: 'Upload File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Distribution File' });
    await expect(dialog.getByText(/Supported types:/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByText('Please select a file.')).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/files-modal-desktop.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(table(page)).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await page.screenshot({ path: '/tmp/files-phone.png', fullPage: true });
    await rowNamed(page, otherFile.file_name)
      .getByRole('button', { name: `Delete file ${otherFile.file_name}` })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete File' });
    await expect(confirm).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/files-confirm-phone.png' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowNamed(page, otherFile.file_name)).toHaveCount(1);
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect(page.getByRole('dialog', { name: 'Upload Distribution File' })).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await page.screenshot({ path: '/tmp/files-modal-phone.png' });
  });

  test('shows the upload under way, a delete the server refuses in its own words, and the empty version list', async ({ page }) => {
    const name = `streamhub-${marker}-arm64.rpm`;
    // Hold the upload at the server's door until the screen has shown it is under way.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/distribution-files', async (route) => {
      if (route.request().method() === 'POST') await gate;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Upload File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Distribution File' });
    await choose(page, dialog, 'Version', versionOption(versionB.version));
    await choose(page, dialog, 'Operating System', 'Linux');
    await choose(page, dialog, 'Architecture', 'arm64');
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'build.rpm', mimeType: 'application/x-rpm', buffer: randomBytes(1536) });
    await dialog.getByRole('textbox', { name: 'Custom File Name (optional)' }).fill(name);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog.getByTestId('files-uploading')).toContainText(`Uploading ${name} (1.50 KB)...`);
    await expect(dialog.getByRole('progressbar', { name: 'Upload in progress' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await page.screenshot({ path: '/tmp/files-uploading.png' });
    release();
    await expect(dialog).toHaveCount(0);
    const row = rowNamed(page, name);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('file-arch')).toHaveText('arm64');
    await page.unroute('**/api/admin/distribution-files');

    // Another admin deleted it meanwhile: the server's 404 is shown as it is, no fake success.
    const id = Number((await row.getAttribute('data-testid'))!.replace('file-row-', ''));
    await deleteFileByApi(page, token, id);
    await row.getByRole('button', { name: `Delete file ${name}` }).click();
    await page.getByRole('dialog', { name: 'Delete File' }).getByRole('button', { name: 'Delete File' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `Failed to delete file: File ${id} not found` })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'File deleted successfully' })).toHaveCount(0);

    // With no versions at all, the form says what to do first (the shared test database always has some, so the answer is stubbed).
    await page.route('**/api/admin/distribution-files/versions', (route) => route.fulfill({ json: { success: true, data: [] } }));
    await page.reload();
    await page.getByRole('button', { name: 'Upload File' }).click();
    const empty = page.getByRole('dialog', { name: 'Upload Distribution File' });
    await expect(empty.getByText('No versions found. Please create a version first.')).toBeVisible();
    await expect(empty.getByRole('combobox', { name: 'Version' })).toBeDisabled();
    await empty.getByRole('link', { name: 'Go to Version Management' }).click();
    await expect(page).toHaveURL(/\/secret-admin\/versions$/);
  });
});
