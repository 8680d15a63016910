import { expect, test } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import {
  adminToken,
  createVerifiedClient,
  createVersionByApi,
  fitsViewport,
  loginAsClient,
  seriousAxeViolations,
  uploadFileByApi,
} from './support/portal';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Versions this spec made, deleted (with their files) after each test so later specs see the list they expect. */
const created: number[] = [];

/** The fixed header would cover the top of a section's screenshot. */
const HIDE_HEADER = 'header { visibility: hidden; }';

/**
 * Version numbers of this run only: the database is shared with the other spec files. Their major is above any
 * other spec's, so the catalog (newest semantic version first) shows them first.
 */
const unique = () => `${1_000_000 + (Date.now() % 1000)}.${randomBytes(2).readUInt16BE()}`;

test.describe('Client Available Downloads', () => {
  test.afterEach(async ({ page }) => {
    const token = await adminToken(page);
    for (const id of created.splice(0)) {
      const response = await page.request.delete(`/api/admin/versions/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status()).toBe(200);
    }
  });

  test('shows versions with their files, downloads a file natively, and copies the Linux install command', async ({ page, context }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const token = await adminToken(page);
    const run = unique();
    const latest = `${run}.1`;
    const older = `${run}.0`;
    // Numbered right below the latest (and above every other spec's versions): right after it, on the first page.
    created.push((await createVersionByApi(page, token, { version: older, release_date: '2099-03-15', is_latest: 'false' })).id);
    const version = await createVersionByApi(page, token, {
      version: latest,
      release_date: '2025-06-01',
      changelog: 'Faster HLS packaging and SRT ingest.',
      is_latest: 'true',
      is_stable: 'true',
    });
    created.push(version.id);
    const debName = `streamhub_${latest}_amd64.deb`;
    const debBytes = randomBytes(300_000);
    const deb = await uploadFileByApi(page, token, {
      version_id: version.id,
      os_type: 'linux',
      architecture: 'x64',
      name: debName,
      bytes: debBytes,
    });
    const zipBytes = randomBytes(5000);
    await uploadFileByApi(page, token, {
      version_id: version.id,
      os_type: 'windows',
      architecture: 'x64',
      name: `streamhub-${latest}-windows-x64.zip`,
      bytes: zipBytes,
    });
    expect(deb.file_hash).toBe(sha256(debBytes));

    await loginAsClient(page, await createVerifiedClient(page));
    const block = page.getByTestId(`version-${latest}`);
    await expect(block.getByRole('heading', { name: `Version ${latest} (Latest)` })).toBeVisible();
    await expect(block.getByTestId('version-changelog')).toHaveText('Faster HLS packaging and SRT ingest.');
    await expect(block.getByTestId('version-released')).toHaveText('Released Jun 1, 2025');
    const debButton = block.getByRole('button', { name: /^Download Linux · x64 \(64-bit\)/ });
    await expect(debButton).toContainText('293.0 KB · 0 downloads');
    await expect(debButton).toContainText(debName);
    const zipButton = block.getByRole('button', { name: /^Download Windows · x64 \(64-bit\)/ });
    await expect(zipButton).toContainText('4.9 KB · 0 downloads');

    const empty = page.getByTestId(`version-${older}`);
    await expect(empty.getByRole('heading', { name: `Version ${older}` })).toBeVisible();
    await expect(empty.getByText('No description available')).toBeVisible();
    await expect(empty.getByText('No downloads available yet')).toBeVisible();
    await expect(empty.getByText('Files will be available soon')).toBeVisible();
    await expect(empty.getByRole('button')).toHaveCount(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/downloads-desktop.png', fullPage: true });

    // Download: the browser fetches the signed link itself; the file is byte-identical and the count rises by one.
    const downloadEvent = page.waitForEvent('download');
    await debButton.click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe(debName);
    expect(sha256(readFileSync((await download.path())!))).toBe(sha256(debBytes));
    const started = page.getByRole('dialog', { name: 'Download Started' });
    await expect(started).toBeVisible();
    await expect(started).toContainText(`${debName} (293.0 KB) is being downloaded.`);
    await expect(started.getByTestId('download-sha256')).toHaveText(sha256(debBytes));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/downloads-dialog-started.png', animations: 'disabled' });
    await expect(debButton).toContainText('293.0 KB · 1 download');
    await started.getByRole('button', { name: 'OK' }).click();
    await expect(started).toBeHidden();
    await expect(zipButton).toContainText('0 downloads');

    // Copy Command: the server's install command with a signed link and the SHA-256 check, and Command Copied.
    const install = block.getByTestId('linux-install');
    await install.getByRole('button', { name: 'Copy Command' }).click();
    const copied = page.getByRole('dialog', { name: 'Command Copied' });
    await expect(copied).toBeVisible();
    await expect(copied).toContainText(`Paste it into a terminal on your Linux server to install ${debName}.`);
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toContain(`/api/download/${deb.id}/signed?`);
    expect(clipboard).toContain(`echo '${sha256(debBytes)}  ${debName}' | sha256sum -c -`);
    expect(clipboard).toContain(`sudo apt install -y ./${debName}`);
    await expect(install.getByTestId('install-command')).toHaveText(clipboard);
    await expect(install.getByTestId('install-command-validity')).toContainText('(15 minutes)');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/downloads-dialog-copied.png', animations: 'disabled' });
    await copied.getByRole('button', { name: 'OK' }).click();
    await expect(copied).toBeHidden();

    // The link in the command works without a session, as curl would use it.
    const signed = clipboard.match(/'(https?:\/\/[^']+\/signed\?[^']+)'/)?.[1] ?? clipboard.match(/(https?:\/\/\S+\/signed\?\S+)/)![1];
    const viaLink = await fetch(signed);
    expect(viaLink.status).toBe(200);
    expect(sha256(Buffer.from(await viaLink.arrayBuffer()))).toBe(sha256(debBytes));

    // On a phone the block fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(block.getByRole('heading', { name: `Version ${latest} (Latest)` })).toBeVisible();
    // One download in the browser and one through the signed link.
    await expect(debButton).toContainText('293.0 KB · 2 downloads');
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/downloads-phone.png' });
    await install.getByRole('button', { name: 'Copy Command' }).click();
    await expect(page.getByRole('dialog', { name: 'Command Copied' })).toBeVisible();
    await page.screenshot({ path: '/tmp/downloads-phone-dialog.png', animations: 'disabled' });
    await page.getByRole('dialog', { name: 'Command Copied' }).getByRole('button', { name: 'OK' }).click();

    // In German, every text of the block comes from the catalog, sizes with a decimal comma.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('language-select').first().selectOption('de');
    await expect(page.getByRole('heading', { name: 'Verfügbare Downloads' })).toBeVisible();
    await expect(block.getByRole('heading', { name: `Version ${latest} (Neueste)` })).toBeVisible();
    await expect(block.getByTestId('version-released')).toHaveText('Veröffentlicht am 01.06.2025');
    await expect(block.getByRole('button', { name: /^Herunterladen Linux · x64 \(64-Bit\)/ })).toContainText('293,0 KB · 2 Downloads');
    await expect(empty.getByText('Noch keine Downloads verfügbar')).toBeVisible();
    await expect(install.getByRole('button', { name: 'Befehl kopieren' })).toBeVisible();
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/downloads-desktop-de.png' });
  });

  test('pages through the versions ten at a time, in English and German, on a desktop and a phone', async ({ page }) => {
    test.setTimeout(120_000);
    const token = await adminToken(page);
    const run = unique();
    // Eleven older versions and a latest one, numbered above anything else the shared database holds, so they are
    // the first twelve: the latest and nine on page one, the two oldest of them at the top of page two.
    for (let day = 1; day <= 11; day++) {
      const version = await createVersionByApi(page, token, {
        version: `${run}.${day}`,
        release_date: `2098-01-${String(day).padStart(2, '0')}`,
        is_latest: 'false',
      });
      created.push(version.id);
    }
    const latest = await createVersionByApi(page, token, { version: `${run}.99`, release_date: '2098-02-01', is_latest: 'true' });
    created.push(latest.id);
    await uploadFileByApi(page, token, {
      version_id: created[1],
      os_type: 'linux',
      architecture: 'x64',
      name: `streamhub_${run}.2_amd64.deb`,
      bytes: randomBytes(2000),
    });
    // The catalog counts published versions only (another spec leaves drafts and yanked ones).
    const total = Number(
      (
        await (
          await page.request.get('/api/admin/versions?limit=1&state=published', { headers: { Authorization: `Bearer ${token}` } })
        ).json()
      ).meta.total,
    );
    const pages = Math.ceil(total / 10);

    await loginAsClient(page, await createVerifiedClient(page));
    const downloads = page.getByTestId('available-downloads');
    const blocks = downloads.getByRole('article');
    await expect(blocks.first()).toHaveAttribute('data-testid', `version-${run}.99`);
    await expect(blocks).toHaveCount(10);
    await expect(blocks.nth(9)).toHaveAttribute('data-testid', `version-${run}.3`);
    await expect(downloads.getByText(`Showing 1 to 10 of ${total} versions`)).toBeVisible();
    await expect(downloads.getByTestId('page-indicator')).toHaveText(`Page 1 of ${pages}`);
    await expect(page.getByTestId(`version-${run}.2`)).toHaveCount(0);
    await mkdir('/tmp/shots-catalog', { recursive: true });
    await downloads.screenshot({ style: HIDE_HEADER, path: '/tmp/shots-catalog/downloads-1280-en.png' });

    await downloads.getByRole('button', { name: 'Next' }).click();
    await expect(blocks.first()).toHaveAttribute('data-testid', `version-${run}.2`);
    await expect(blocks.nth(1)).toHaveAttribute('data-testid', `version-${run}.1`);
    await expect(page.getByTestId(`version-${run}.99`)).toHaveCount(0);
    await expect(downloads.getByTestId('page-indicator')).toHaveText(`Page 2 of ${pages}`);
    await expect(downloads.getByText(`Showing 11 to ${Math.min(20, total)} of ${total} versions`)).toBeVisible();
    // The new page starts at the section's title, below the fixed header, not at the pager far below it.
    const title = page.getByRole('heading', { name: 'Available Downloads' });
    await expect(title).toBeInViewport();
    const header = (await page.locator('header').first().boundingBox())!;
    await expect.poll(async () => (await title.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
    // A page's files come with it, and download as on page one.
    const deb = page.getByTestId(`version-${run}.2`).getByRole('button', { name: /^Download Linux · x64 \(64-bit\)/ });
    await expect(deb).toContainText('0 downloads');
    const downloadEvent = page.waitForEvent('download');
    await deb.click();
    expect((await downloadEvent).suggestedFilename()).toBe(`streamhub_${run}.2_amd64.deb`);
    await page.getByRole('dialog', { name: 'Download Started' }).getByRole('button', { name: 'OK' }).click();
    await expect(deb).toContainText('1 download');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await downloads.getByRole('button', { name: 'Previous' }).click();
    await expect(blocks.first()).toHaveAttribute('data-testid', `version-${run}.99`);

    // On a phone the pager keeps its buttons by name and the section fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await downloads.screenshot({ style: HIDE_HEADER, path: '/tmp/shots-catalog/downloads-390-en.png' });

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('language-select').first().selectOption('de');
    await expect(page.getByRole('heading', { name: 'Verfügbare Downloads' })).toBeVisible();
    await expect(downloads.getByText(`1 bis 10 von ${total} Versionen`)).toBeVisible();
    await expect(downloads.getByTestId('page-indicator')).toHaveText(`Seite 1 von ${pages}`);
    await downloads.screenshot({ style: HIDE_HEADER, path: '/tmp/shots-catalog/downloads-1280-de.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await downloads.getByRole('button', { name: 'Weiter' }).click();
    await expect(blocks.first()).toHaveAttribute('data-testid', `version-${run}.2`);
    await expect(downloads.getByTestId('page-indicator')).toHaveText(`Seite 2 von ${pages}`);
    await downloads.screenshot({ style: HIDE_HEADER, path: '/tmp/shots-catalog/downloads-390-de-page2.png' });
  });
});
