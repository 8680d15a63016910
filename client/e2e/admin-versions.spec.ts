import { expect, Page, test } from '@playwright/test';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  adminToken,
  closedPortUrl,
  createVersionByApi,
  fitsViewport,
  loginAsAdmin,
  pauseClock,
  recordListSearches,
  SCREENS,
  seriousAxeViolations,
  showAs,
  typeQuickly,
  unexplainedSearches,
} from './support/portal';

/** Version numbers unique to this run: the test server's database lives across the spec files of one run. */
const RUN = randomInt(10_000, 99_999);
let serial = 0;
const nextVersion = () => `${RUN}.${++serial}.0`;

const rows = (page: Page) => page.getByTestId('versions-table').locator('tbody tr');
const search = (page: Page) => page.getByPlaceholder('Search versions...');
const row = (page: Page, version: string) => page.getByTestId(`version-row-${version}`);

test.describe('Version Management', () => {
  let marker: string;
  test.beforeEach(async ({ page }) => {
    marker = `ver-${randomBytes(4).toString('hex')}`;
    await loginAsAdmin(page);
    await page.getByRole('link', { name: 'Versions' }).first().click();
    await expect(page).toHaveURL(/\/secret-admin\/versions$/);
    await expect(page.getByRole('heading', { name: 'Version Management' })).toBeVisible();
    await page.mouse.move(0, 0);
  });

  test('uploads a version through the modal, validating first, and finds it with the server search', async ({ page }) => {
    const version = nextVersion();
    const bytes = randomBytes(3000);
    const hash = createHash('sha256').update(bytes).digest('hex');

    await page.getByRole('button', { name: 'Upload Version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Version' });
    await dialog.getByRole('button', { name: 'Upload Version' }).click();
    await expect(dialog.getByText('Version is required')).toBeVisible();
    await expect(dialog.getByText('Release date is required')).toBeVisible();

    await dialog.getByRole('textbox', { name: 'Version' }).fill('two point four');
    await dialog.getByRole('textbox', { name: 'Download URL' }).fill('not a url');
    await dialog.getByRole('textbox', { name: 'Minimum system requirements' }).fill('{os: ubuntu');
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: `streamhub-${version}.tar.gz`, mimeType: 'application/gzip', buffer: bytes });
    await dialog.getByRole('button', { name: 'Upload Version' }).click();
    await expect(dialog.getByText('Version must be a semantic version such as 2.1.0 or 3.0.0-beta.1 (no leading v)')).toBeVisible();
    await expect(dialog.getByText('Download URL must be a valid URL')).toBeVisible();
    await expect(dialog.getByText('System requirements must be valid JSON')).toBeVisible();
    await expect(dialog.getByText('File type not allowed. Allowed types: .zip, .exe, .dmg, .pkg')).toBeVisible();
    await expect(page.getByText(/uploaded successfully/)).toHaveCount(0);

    await dialog.getByRole('textbox', { name: 'Version' }).fill(version);
    await dialog.getByLabel('Release date').fill('2025-03-14');
    await dialog.getByRole('textbox', { name: 'Changelog' }).fill(`Low-latency HLS ${marker}`);
    await dialog.getByRole('textbox', { name: 'Download URL' }).fill(`https://downloads.example.com/${version}`);
    await dialog.getByRole('textbox', { name: 'Minimum system requirements' }).fill('{"os": "Ubuntu 22.04", "ram": "4 GB"}');
    // Defaults: channel Stable, state Published, latest off, sync on; this one stays local.
    await expect(dialog.getByRole('combobox', { name: 'Channel' })).toHaveValue('Stable');
    await expect(dialog.getByRole('combobox', { name: 'State' })).toHaveValue('Published');
    await expect(dialog.getByRole('switch', { name: 'Latest version' })).not.toBeChecked();
    await expect(dialog.getByRole('switch', { name: 'Sync to license server' })).toBeChecked();
    await dialog.getByRole('switch', { name: 'Sync to license server' }).click({ force: true });
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: `streamhub-${version}.zip`, mimeType: 'application/zip', buffer: bytes });
    await expect(dialog.getByText('File type not allowed')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Upload Version' }).click();
    await expect(page.getByText(`Version ${version} uploaded successfully`)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // Found by the server's search (debounced), by version and by changelog text.
    await search(page).fill(version);
    await expect(rows(page)).toHaveCount(1);
    const uploaded = row(page, version);
    await expect(uploaded.getByTestId('version-release-date')).toHaveText('Mar 14, 2025');
    await expect(uploaded.getByTestId('version-changelog')).toHaveText(`Low-latency HLS ${marker}`);
    await expect(uploaded.getByRole('link', { name: `Download link of version ${version} (opens in a new tab)` })).toHaveAttribute(
      'href',
      `https://downloads.example.com/${version}`,
    );
    const file = uploaded.getByTestId('version-file');
    await expect(file).toContainText(`streamhub-${version}.zip`);
    await expect(file).toContainText('2.93 KB');
    await expect(file).toContainText(`${hash.slice(0, 8)}…`);
    await expect(file).not.toContainText(hash.slice(0, 9));
    await expect(uploaded.getByTestId('version-keys')).toHaveText('Secret: Not setEncrypt: Not set');
    await expect(uploaded.getByTestId('version-sync')).toHaveText('Local Only');
    await expect(uploaded.getByTestId('version-stable')).toHaveText('Stable');
    await expect(page.getByTestId('versions-showing')).toHaveText('Showing 1-1 of 1 versions');

    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, version)).toBeVisible();

    // A duplicate is refused by the server and shown as the error it is.
    await page.getByRole('button', { name: 'Upload Version' }).click();
    await dialog.getByRole('textbox', { name: 'Version' }).fill(version);
    await dialog.getByLabel('Release date').fill('2025-03-15');
    await dialog.getByRole('button', { name: 'Upload Version' }).click();
    await expect(dialog.getByRole('alert')).toContainText(`Failed to upload version: Version ${version} already exists`);
    await expect(page.getByText(/uploaded successfully/)).toHaveCount(0);
  });

  test('shows keys by their first 8 characters, sorts by release date and pages on the server', async ({ page }) => {
    const token = await adminToken(page);
    const versions: string[] = [];
    // 26 versions: one more than a page of 25.
    for (let day = 1; day <= 26; day++) {
      const version = nextVersion();
      versions.push(version);
      await createVersionByApi(page, token, {
        version,
        release_date: `2024-02-${String(day).padStart(2, '0')}`,
        changelog: `Batch ${marker}`,
        secret_hash: day === 1 ? 'a1b2c3d4e5f6-secret' : undefined,
        encryption_key: day === 1 ? 'k9k8k7k6k5-encryption' : undefined,
      });
    }
    await search(page).fill(marker);
    await expect(page.getByTestId('versions-showing')).toHaveText('Showing 1-25 of 26 versions');
    await expect(rows(page)).toHaveCount(25);
    // Newest first by default (created_at desc).
    await expect(rows(page).first()).toHaveAttribute('data-testid', `version-row-${versions[25]}`);
    await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 2');
    await expect(page.getByRole('button', { name: 'First' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('versions-showing')).toHaveText('Showing 26-26 of 26 versions');
    await expect(rows(page)).toHaveCount(1);
    const first = row(page, versions[0]);
    await expect(first.getByTestId('version-keys')).toHaveText('Secret: a1b2c3d4…Encrypt: k9k8k7k6…');
    await expect(first).not.toContainText('secret');
    await expect(first.getByTestId('version-file')).toHaveText('No file');
    await expect(first.getByTestId('version-sync')).toHaveText('Pending');

    // Sorting returns to page 1 and asks the server.
    await page.getByRole('button', { name: 'Release Date', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Release Date', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByTestId('versions-showing')).toHaveText('Showing 1-25 of 26 versions');
    await expect(rows(page).first()).toHaveAttribute('data-testid', `version-row-${versions[0]}`);
    await expect(rows(page).first().getByTestId('version-release-date')).toHaveText('Feb 1, 2024');
    await page.getByRole('button', { name: 'Release Date', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Release Date', exact: true })).toHaveAttribute('aria-sort', 'descending');
    await expect(rows(page).first()).toHaveAttribute('data-testid', `version-row-${versions[25]}`);
    await expect(rows(page).first().getByTestId('version-release-date')).toHaveText('Feb 26, 2024');
  });

  test('edits the changelog, toggles stable and latest, and the previous latest loses its flag', async ({ page }) => {
    const token = await adminToken(page);
    const older = await createVersionByApi(page, token, {
      version: nextVersion(),
      release_date: '2025-05-01',
      changelog: `First ${marker}`,
    });
    const latest = await createVersionByApi(page, token, {
      version: nextVersion(),
      release_date: '2025-05-02',
      changelog: `Second ${marker}`,
      is_latest: true,
    });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(2);
    await expect(row(page, latest.version).getByTestId('version-latest')).toHaveText('Latest');
    await expect(row(page, older.version).getByTestId('version-latest')).toHaveText('Older');

    // The latest cannot be un-marked, only replaced.
    const latestFlag = page.getByRole('button', { name: `Latest: version ${latest.version} is the latest` });
    await expect(latestFlag).toHaveAttribute('aria-disabled', 'true');
    await latestFlag.hover();
    await expect(page.getByRole('tooltip')).toContainText('mark another version as latest');

    await page.getByRole('button', { name: `Older: mark version ${older.version} as latest` }).click();
    await expect(page.getByText(`Version ${older.version} marked as latest`)).toBeVisible();
    await expect(row(page, older.version).getByTestId('version-latest')).toHaveText('Latest');
    await expect(row(page, latest.version).getByTestId('version-latest')).toHaveText('Older');
    await expect(page.getByTestId('versions-table').getByRole('button', { name: /^Latest:/ })).toHaveCount(1);

    await page.getByRole('button', { name: `Stable: mark version ${older.version} as beta` }).click();
    await expect(page.getByText(`Version ${older.version} marked as beta`)).toBeVisible();
    await expect(row(page, older.version).getByTestId('version-stable')).toHaveText('Beta');
    // Versions messages clear after 5 s (admin spec section 8): still there at 3 s, gone soon after 5. The page's
    // clock stands still from the click and moves only as far as the test says.
    await page.clock.install();
    await pauseClock(page);
    await page.getByRole('button', { name: `Beta: mark version ${older.version} as stable` }).click();
    const stable = page.getByText(`Version ${older.version} marked as stable`);
    await expect(stable).toBeVisible();
    await page.clock.runFor(3000);
    await expect(stable).toBeVisible();
    await page.clock.runFor(2100);
    await expect(stable).toHaveCount(0);
    await page.clock.resume();
    await expect(row(page, older.version).getByTestId('version-stable')).toHaveText('Stable');

    // Edit: version and release date stay required; the changelog changes.
    await page.getByRole('button', { name: `Edit version ${latest.version}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit version ${latest.version}` });
    await expect(dialog.getByRole('textbox', { name: 'Changelog' })).toHaveValue(`Second ${marker}`);
    await dialog.getByRole('textbox', { name: 'Version' }).fill('');
    await dialog.getByLabel('Release date').fill('');
    await dialog.getByRole('button', { name: 'Update Version' }).click();
    await expect(dialog.getByText('Version is required')).toBeVisible();
    await expect(dialog.getByText('Release date is required')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Version' }).fill(latest.version);
    await dialog.getByLabel('Release date').fill('2025-05-20');
    await dialog.getByRole('textbox', { name: 'Changelog' }).fill(`Rewritten notes ${marker}`);
    await dialog.getByRole('button', { name: 'Update Version' }).click();
    await expect(page.getByText(`Version ${latest.version} updated successfully`)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(row(page, latest.version).getByTestId('version-changelog')).toHaveText(`Rewritten notes ${marker}`);
    await expect(row(page, latest.version).getByTestId('version-release-date')).toHaveText('May 20, 2025');

    // What the server stored, read back through its API.
    const stored = await page.request.get(`/api/admin/versions/${latest.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await stored.json()).data).toMatchObject({
      changelog: `Rewritten notes ${marker}`,
      release_date: '2025-05-20',
      is_latest: false,
    });
  });

  test('sends one search request, with the whole term, for a term typed quickly (300 ms debounce)', async ({ page }) => {
    const version = await createVersionByApi(page, await adminToken(page), {
      version: nextVersion(),
      release_date: '2025-06-03',
      changelog: `Debounced ${marker}`,
    });
    const searches = recordListSearches(page, '/api/admin/versions');
    await search(page).click();
    const answered = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/admin/versions' && url.searchParams.get('search') === marker;
    });
    const paused = await typeQuickly(search(page), marker);
    await answered;
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, version.version)).toBeVisible();
    expect(searches.filter((term) => term === marker)).toHaveLength(1);
    expect(unexplainedSearches(searches, marker, paused)).toEqual([]);
  });

  test('shows channel and state, filters by them, publishes a draft and yanks after the confirmation', async ({ page }) => {
    const token = await adminToken(page);
    const draft = await createVersionByApi(page, token, {
      version: `${nextVersion()}-beta.1`,
      release_date: '2025-04-01',
      changelog: `Draft ${marker}`,
      channel: 'beta',
      state: 'draft',
    });
    const stable = await createVersionByApi(page, token, {
      version: nextVersion(),
      release_date: '2025-04-02',
      changelog: `Stable ${marker}`,
    });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(2);
    await expect(row(page, draft.version).getByTestId('version-channel')).toHaveText('Beta');
    await expect(row(page, draft.version).getByTestId('version-state')).toHaveText('Draft');
    await expect(row(page, stable.version).getByTestId('version-channel')).toHaveText('Stable');
    await expect(row(page, stable.version).getByTestId('version-state')).toHaveText('Published');

    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: 'Beta' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, draft.version)).toBeVisible();
    await expect(page).toHaveURL(/channel=beta/);
    await page.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: 'All channels' }).click();
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'Draft' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, draft.version)).toBeVisible();
    await page.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: 'All states' }).click();
    await expect(rows(page)).toHaveCount(2);

    await page.getByRole('button', { name: `Publish version ${draft.version}` }).click();
    await expect(page.getByText(`Version ${draft.version} was published`)).toBeVisible();
    await expect(row(page, draft.version).getByTestId('version-state')).toHaveText('Published');

    await page.getByRole('button', { name: `Yank version ${stable.version}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Yank Version' });
    await expect(confirm).toContainText('Are you sure you want to yank this version?');
    await expect(confirm).toContainText(stable.version);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, stable.version).getByTestId('version-state')).toHaveText('Published');
    await page.getByRole('button', { name: `Yank version ${stable.version}` }).click();
    await confirm.getByRole('button', { name: 'Yank Version' }).click();
    await expect(page.getByText(`Version ${stable.version} was yanked`)).toBeVisible();
    await expect(row(page, stable.version).getByTestId('version-state')).toHaveText('Yanked');
    await expect(page.getByRole('button', { name: `Publish version ${stable.version}` })).toBeVisible();
  });

  test('deletes a version only after the confirmation', async ({ page }) => {
    const token = await adminToken(page);
    const keep = await createVersionByApi(page, token, { version: nextVersion(), release_date: '2025-04-01', changelog: `Keep ${marker}` });
    const gone = await createVersionByApi(page, token, { version: nextVersion(), release_date: '2025-04-02', changelog: `Gone ${marker}` });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(2);

    await page.getByRole('button', { name: `Delete version ${gone.version}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete version' });
    await expect(confirm).toContainText('Are you sure you want to delete this version?');
    await expect(confirm).toContainText(gone.version);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(rows(page)).toHaveCount(2);

    await page.getByRole('button', { name: `Delete version ${gone.version}` }).click();
    await confirm.getByRole('button', { name: 'Delete Version' }).click();
    await expect(page.getByText(`Version ${gone.version} deleted successfully`)).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(row(page, keep.version)).toBeVisible();
    await expect(row(page, gone.version)).toHaveCount(0);
    const after = await page.request.get(`/api/admin/versions/${gone.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status()).toBe(404);

    await search(page).fill(gone.version);
    await expect(page.getByTestId('versions-empty')).toContainText('No versions found');
  });

  test('syncs with the license server: recommended before the first sync, the row Sync, the button, and a real failure', async ({
    page,
  }) => {
    const token = await adminToken(page);
    const version = await createVersionByApi(page, token, { version: nextVersion(), release_date: '2025-06-01', changelog: marker });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(1);

    // No version has been synced in this database yet: the last sync is missing, so a sync is recommended.
    await expect(page.getByTestId('license-server-line')).toHaveText('License server: this portal');
    await expect(page.getByTestId('versions-last-sync')).toHaveText('Last sync: Never(Sync recommended)');
    const sync = page.getByRole('button', { name: 'Sync with License Server' });
    await expect(sync).toHaveAttribute('data-sync-recommended', 'true');
    // Orange, as the spec asks when a sync is recommended.
    expect(await sync.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(255, 244, 230)');

    // The row's Sync action (the version is pending): the portal is its own license server, so it is live at once.
    await expect(row(page, version.version).getByTestId('version-sync')).toHaveText('Pending');
    await page.getByRole('button', { name: `Sync version ${version.version}` }).click();
    await expect(page.getByText('Sync completed! 0 new versions, 1 updated')).toBeVisible();
    await expect(row(page, version.version).getByTestId('version-sync')).toHaveText('Synced');
    await expect(page.getByRole('button', { name: `Sync version ${version.version}` })).toHaveCount(0);
    await expect(page.getByTestId('versions-last-sync')).toHaveText(/^Last sync: \w{3} \d{1,2}, \d{4}/);
    await expect(page.getByTestId('versions-last-sync-recommended')).toHaveCount(0);
    await expect(sync).not.toHaveAttribute('data-sync-recommended');

    // The button: 'Connecting to license server...' while the call runs, then the spec's message.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/versions/sync', async (route) => {
      await held;
      await route.continue();
    });
    await sync.click();
    await expect(page.getByTestId('license-server-line')).toHaveText('Connecting to license server...');
    release();
    await expect(page.getByText(/^Sync completed! 0 new versions, \d+ updated$/)).toBeVisible();
    await expect(page.getByTestId('license-server-line')).toHaveText('License server: this portal');
    await page.unroute('**/api/admin/versions/sync');

    // With an external license server that does not answer, the real error shows, and the status line names it.
    const settings = (url: string) =>
      page.request.patch('/api/admin/settings', {
        headers: { Authorization: `Bearer ${token}` },
        data: { key: 'license_server.url', value: url },
      });
    const nowhere = await closedPortUrl();
    expect((await settings(nowhere)).ok()).toBe(true);
    try {
      await page.reload();
      await expect(page.getByTestId('license-server-line')).toHaveText(`License server: ${nowhere}`);
      await sync.click();
      await expect(page.getByRole('alert').filter({ hasText: 'Sync failed' })).toHaveText(
        `Sync failed: The license server at ${nowhere} cannot be reached (ECONNREFUSED)`,
      );
    } finally {
      expect((await settings('')).ok()).toBe(true);
    }
  });

  test('shows a failed load as its error, with Retry, never as an empty or sample list', async ({ page }) => {
    const version = await createVersionByApi(page, await adminToken(page), {
      version: nextVersion(),
      release_date: '2025-06-02',
      changelog: marker,
    });
    await page.route('**/api/admin/versions?*', (route) =>
      route.fulfill({ status: 500, json: { statusCode: 500, message: 'Database unavailable' } }),
    );
    await search(page).fill(marker);
    await expect(page.getByRole('alert')).toContainText('Failed to load versions: Database unavailable');
    await expect(page.getByTestId('versions-table')).toHaveCount(0);
    await expect(page.getByTestId('versions-empty')).toHaveCount(0);

    await page.unroute('**/api/admin/versions?*');
    await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
    await expect(row(page, version.version)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('shows a changelog rendered from its Markdown, a long one folded behind Show more, in English and German', async ({ page }) => {
    const token = await adminToken(page);
    const version = await createVersionByApi(page, token, {
      version: nextVersion(),
      release_date: '2025-07-02',
      changelog: `## Highlights ${marker}\n\n- **SRT** ingest\n- Faster HLS packaging\n- Lower start-up latency\n- New metrics page\n- Quieter logs`,
    });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(1);
    const changelog = row(page, version.version).getByTestId('version-changelog');
    await expect(changelog.getByRole('heading', { name: `Highlights ${marker}` })).toBeVisible();
    await expect(changelog.locator('strong')).toHaveText('SRT');
    await expect(changelog.getByRole('listitem')).toHaveCount(5);
    await expect(changelog).not.toContainText('**');
    await row(page, version.version).getByRole('button', { name: 'Show more' }).click();
    await expect(changelog.getByRole('listitem').filter({ hasText: 'Quieter logs' })).toBeVisible();
    await expect(row(page, version.version).getByRole('button', { name: 'Show less' })).toBeVisible();

    for (const [width, locale] of SCREENS) {
      await showAs(page, width, locale);
      await page.getByPlaceholder(locale === 'de' ? 'Versionen durchsuchen …' : 'Search versions...').fill(marker);
      await expect(row(page, version.version).getByTestId('version-changelog').getByRole('heading')).toBeVisible();
      await expect(row(page, version.version).getByRole('button', { name: locale === 'de' ? 'Mehr anzeigen' : 'Show more' })).toBeVisible();
      await page.screenshot({ path: `e2e/screenshots/admin-versions-changelog-${locale}-${width}.png`, fullPage: true });
    }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
  });

  test('has no serious or critical accessibility violations, with data and with the modals open, and fits a phone', async ({ page }) => {
    const token = await adminToken(page);
    const version = await createVersionByApi(page, token, {
      version: nextVersion(),
      release_date: '2025-07-01',
      changelog: `Accessible ${marker}`,
      secret_hash: 'secret-for-axe-1234',
    });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (process.env.VERSIONS_SCREENSHOTS) await page.screenshot({ path: '/tmp/versions-desktop.png', fullPage: true });

    await page.getByRole('button', { name: 'Upload Version' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Version' });
    await upload.getByRole('button', { name: 'Upload Version' }).click();
    await expect(upload.getByText('Version is required')).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    if (process.env.VERSIONS_SCREENSHOTS) await page.screenshot({ path: '/tmp/versions-upload.png' });
    await page.keyboard.press('Escape');
    await expect(upload).toHaveCount(0);

    await page.getByRole('button', { name: `Edit version ${version.version}` }).click();
    await expect(page.getByRole('dialog', { name: `Edit version ${version.version}` })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: `Delete version ${version.version}` }).click();
    await expect(page.getByRole('dialog', { name: 'Delete version' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(rows(page)).toHaveCount(1);
    if (process.env.VERSIONS_SCREENSHOTS) await page.screenshot({ path: '/tmp/versions-phone.png', fullPage: true });
    // The shell collapses its sidebar after the resize.
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await page.getByRole('button', { name: 'Upload Version' }).click();
    await expect(page.getByRole('dialog', { name: 'Upload Version' })).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
    if (process.env.VERSIONS_SCREENSHOTS) await page.screenshot({ path: '/tmp/versions-phone-upload.png' });
  });
});
