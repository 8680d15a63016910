import { expect, test } from '@playwright/test';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createVerifiedClient, loginAsAdmin, loginAsClient } from './support/portal';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The path the product exists for, through the screens only: an admin ships a version and its Linux package,
 * a customer finds it on the dashboard, downloads it and copies the install command.
 */
test('an admin ships a version and a package through the screens; a client downloads it and copies the install command', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Above the other suites' versions (admin-versions: majors under 100,000), below downloads.spec's (1,000,000 on): the
  // dashboard lists the newest semantic version first, and this one must be on its first page.
  const version = `${randomInt(500_000, 999_999)}.${randomInt(0, 999)}.${randomInt(0, 99_999)}`;
  const packageName = `streamhub_${version}_amd64.deb`;
  const packageBytes = randomBytes(70_000);

  // Version Management: upload the version (with its own archive) and make it the latest.
  await loginAsAdmin(page);
  await page.getByRole('link', { name: 'Versions' }).first().click();
  await page.getByRole('button', { name: 'Upload Version' }).click();
  const versionDialog = page.getByRole('dialog', { name: 'Upload Version' });
  await versionDialog.getByRole('textbox', { name: 'Version' }).fill(version);
  await versionDialog.getByLabel('Release date').fill('2026-11-20');
  await versionDialog.getByRole('textbox', { name: 'Changelog' }).fill('SRT ingest and faster HLS packaging.');
  await versionDialog.getByRole('switch', { name: 'Latest version' }).click({ force: true });
  await versionDialog
    .locator('input[type="file"]')
    .setInputFiles({ name: `streamhub-${version}.zip`, mimeType: 'application/zip', buffer: randomBytes(4000) });
  await versionDialog.getByRole('button', { name: 'Upload Version' }).click();
  await expect(page.getByText(`Version ${version} uploaded successfully`)).toBeVisible();

  // File Management: upload the Linux package for it.
  await page.getByRole('link', { name: 'Files' }).first().click();
  await page.getByRole('button', { name: 'Upload File' }).click();
  const fileDialog = page.getByRole('dialog', { name: 'Upload Distribution File' });
  const choose = async (label: string, option: string | RegExp) => {
    await fileDialog.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option }).click();
  };
  await choose('Version', new RegExp(`^v${version.replace(/\./g, '\\.')}( |$)`));
  await choose('Operating System', 'Linux');
  await choose('Architecture', 'x64');
  await fileDialog
    .locator('input[type="file"]')
    .setInputFiles({ name: packageName, mimeType: 'application/vnd.debian.binary-package', buffer: packageBytes });
  await fileDialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `File ${packageName} uploaded successfully` })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/secret-admin$/);

  // The client's dashboard: the version as the latest, with the package and its size.
  await loginAsClient(page, await createVerifiedClient(page));
  const block = page.getByTestId(`version-${version}`);
  await expect(block.getByRole('heading', { name: `Version ${version} (Latest)` })).toBeVisible();
  await expect(block.getByTestId('version-changelog')).toHaveText('SRT ingest and faster HLS packaging.');
  const packageButton = block.getByRole('button', { name: /^Download Linux · x64/ });
  await expect(packageButton).toContainText('68.4 KB · 0 downloads');

  // Download: the very bytes the admin uploaded, counted once.
  const downloadEvent = page.waitForEvent('download');
  await packageButton.click();
  const download = await downloadEvent;
  expect(download.suggestedFilename()).toBe(packageName);
  expect(sha256(readFileSync((await download.path())!))).toBe(sha256(packageBytes));
  const started = page.getByRole('dialog', { name: 'Download Started' });
  await expect(started).toBeVisible();
  await started.getByRole('button', { name: 'OK' }).click();
  await expect(packageButton).toContainText('68.4 KB · 1 download');

  // Install command: apt with a signed link, checked against the package's SHA-256.
  await block.getByTestId('linux-install').getByRole('button', { name: 'Copy Command' }).click();
  await expect(page.getByRole('dialog', { name: 'Command Copied' })).toBeVisible();
  const command = await page.evaluate(() => navigator.clipboard.readText());
  expect(command).toContain(`echo '${sha256(packageBytes)}  ${packageName}' | sha256sum -c -`);
  expect(command).toContain(`sudo apt install -y ./${packageName}`);
  expect(command).toMatch(/\/api\/download\/\d+\/signed\?/);
});
