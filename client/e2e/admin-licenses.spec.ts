import { expect, Page, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { adminToken, fitsViewport, loginAsAdmin, pauseClock, seriousAxeViolations } from './support/portal';

const DAY = 24 * 3600 * 1000;
const isoDate = (daysAhead: number) => new Date(Date.now() + daysAhead * DAY).toISOString().slice(0, 10);

/** A license issued through the admin API, as another admin would through the screen. */
async function issueLicense(
  page: Page,
  token: string,
  data: { user_email: string; expires_at: string; max_activations?: number; status?: 'active' | 'pending' },
) {
  const response = await page.request.post('/api/admin/licenses', {
    headers: { Authorization: `Bearer ${token}` },
    data: { product_name: 'StreamHub Pro', ...data },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).data as { id: number; license_key: string };
}

/** A streaming server activating itself through the public activation API. */
async function activateServer(page: Page, licenseKey: string, n: number) {
  const response = await page.request.post('/api/license-server/activate', {
    data: {
      license_key: licenseKey,
      server_uid: `srv-${randomBytes(6).toString('hex')}-${n}`,
      nonce: randomBytes(16).toString('hex'),
      device_name: `Encoder ${n}`,
      hostname: `encoder-${n}.example.test`,
      product: 'StreamHub',
      version: '2.1.0',
    },
  });
  expect(response.status()).toBe(200);
  expect((await response.json()).data.code).toBe('VALID');
}

const rows = (page: Page) => page.getByTestId('licenses-table').locator('tbody tr');
/** A row's status actions: Activate and Revoke, whichever it offers. */
const statusActions = (page: Page, key: string) =>
  row(page, key).getByRole('button', { name: new RegExp(`^(Activate|Revoke) license ${key}$`) });
const search = (page: Page) => page.getByPlaceholder('Search licenses...');
const row = (page: Page, key: string) => page.getByTestId(`license-row-${key}`);

test.describe('License Management', () => {
  let marker: string;
  test.beforeEach(async ({ page }) => {
    marker = `lic-${randomBytes(4).toString('hex')}`;
    await loginAsAdmin(page);
    await page.getByRole('link', { name: 'Licenses' }).first().click();
    await expect(page).toHaveURL(/\/secret-admin\/licenses$/);
    await expect(page.getByRole('heading', { name: 'License Management' })).toBeVisible();
    await page.mouse.move(0, 0);
  });

  test('creates a license with a generated key, finds, sorts, revokes, activates, copies and deletes it', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = `${marker}@portal.test`;

    // Create through the modal, validating on the way.
    await page.getByRole('button', { name: 'Create License' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create License' });
    await dialog.getByRole('button', { name: 'Create License' }).click();
    await expect(dialog.getByText('Please select a product')).toBeVisible();
    await expect(dialog.getByText('User email is required')).toBeVisible();
    await expect(dialog.getByText('Expiry date is required')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: 'StreamHub Enterprise' }).click();
    await dialog.getByRole('textbox', { name: 'User email' }).fill(email);
    await dialog.getByLabel('Expires at').fill(isoDate(400));
    await dialog.getByRole('textbox', { name: 'Max activations' }).fill('3');
    const keyInput = dialog.getByRole('textbox', { name: 'License key (optional)' });
    await expect(keyInput).toHaveValue('');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    await expect(keyInput).toHaveValue(/^SH-[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
    const key = await keyInput.inputValue();
    await dialog.getByRole('button', { name: 'Create License' }).click();
    await expect(page.getByText(`License ${key} created successfully`)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // Found by the server's search (debounced), by key and by e-mail.
    await search(page).fill(key);
    await expect(rows(page)).toHaveCount(1);
    const created = row(page, key);
    await expect(created).toContainText('StreamHub Enterprise');
    await expect(created).toContainText(email);
    await expect(created.getByTestId('license-status')).toHaveText('Active');
    await expect(created.getByTestId('license-activations')).toHaveText('0 / 3');
    // The portal is its own license server, so a new license is confirmed there at once.
    await expect(created).toContainText('Synced');

    // Two more licenses for the same user, then sort on the server by key and by expiry.
    const token = await adminToken(page);
    const soon = await issueLicense(page, token, { user_email: email, expires_at: isoDate(20) });
    const later = await issueLicense(page, token, { user_email: email, expires_at: isoDate(200) });
    await search(page).fill(email);
    await expect(rows(page)).toHaveCount(3);
    await expect(page.getByTestId('licenses-showing')).toHaveText('Showing 1 to 3 of 3 licenses');
    await expect(row(page, soon.license_key)).toContainText('Expires soon!');
    await expect(row(page, later.license_key)).not.toContainText('Expires soon!');
    const keys = [key, soon.license_key, later.license_key].sort();
    await page.getByRole('button', { name: 'License Key', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'License Key', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows(page).first()).toHaveAttribute('data-testid', `license-row-${keys[0]}`);
    await expect(rows(page).last()).toHaveAttribute('data-testid', `license-row-${keys[2]}`);
    await page.getByRole('button', { name: 'License Key', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'License Key', exact: true })).toHaveAttribute('aria-sort', 'descending');
    await expect(rows(page).first()).toHaveAttribute('data-testid', `license-row-${keys[2]}`);
    await page.getByRole('button', { name: 'Expires', exact: true }).click();
    await expect(rows(page).first()).toHaveAttribute('data-testid', `license-row-${soon.license_key}`);
    await expect(rows(page).last()).toHaveAttribute('data-testid', `license-row-${key}`);

    // Revoke with the spec's list, then activate again.
    await page.getByRole('button', { name: `Revoke license ${key}` }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke license' });
    await expect(revoke).toContainText('Are you sure you want to revoke this license?');
    await expect(revoke).toContainText(key);
    await expect(revoke).toContainText('Set the license status to revoked');
    await expect(revoke).toContainText('Deactivate all installations using it (0 active now)');
    await expect(revoke).toContainText('The user loses access to the software');
    await expect(revoke).toContainText('You can activate the license again later');
    await revoke.getByRole('button', { name: 'Revoke License' }).click();
    await expect(page.getByText('License revoked successfully')).toBeVisible();
    await expect(row(page, key).getByTestId('license-status')).toHaveText('Revoked');
    await expect(page.getByRole('button', { name: `Revoke license ${key}` })).toHaveCount(0);
    await page.getByRole('button', { name: `Activate license ${key}` }).click();
    await expect(page.getByText('License activated successfully')).toBeVisible();
    await expect(row(page, key).getByTestId('license-status')).toHaveText('Active');
    await expect(page.getByRole('button', { name: `Activate license ${key}` })).toHaveCount(0);

    // Copy the key to the clipboard.
    await page.getByRole('button', { name: `Copy license key ${key}` }).click();
    await expect(page.getByText(`License key ${key} copied to clipboard`)).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    // Delete with the spec's list; the message says what happened on the server.
    await page.getByRole('button', { name: `Delete license ${key}` }).click();
    const remove = page.getByRole('dialog', { name: 'Delete license' });
    await expect(remove).toContainText('Are you sure you want to delete this license?');
    await expect(remove).toContainText('Remove the license permanently from the database');
    await expect(remove).toContainText('Revoke it on the license server');
    await expect(remove).toContainText('Deactivate all installations using it (0 active now)');
    await expect(remove).toContainText('The user loses access to the software');
    await remove.getByRole('button', { name: 'Delete License' }).click();
    await expect(
      page.getByText('License deleted successfully from local database and revoked on license server. 0 installations deactivated.'),
    ).toBeVisible();
    await expect(rows(page)).toHaveCount(2);
    await expect(row(page, key)).toHaveCount(0);
    await search(page).fill(key);
    await expect(page.getByTestId('licenses-empty')).toContainText('No licenses found');
  });

  test('offers Activate only for a revoked license and Revoke for any other, and the revoke message clears after 5 s', async ({ page }) => {
    const token = await adminToken(page);
    const email = `${marker}@portal.test`;
    const active = await issueLicense(page, token, { user_email: email, expires_at: isoDate(90) });
    const pending = await issueLicense(page, token, { user_email: email, expires_at: isoDate(90), status: 'pending' });
    const revoked = await issueLicense(page, token, { user_email: email, expires_at: isoDate(90) });
    const revoking = await page.request.post(`/api/admin/licenses/${revoked.id}/revoke`, { headers: { Authorization: `Bearer ${token}` } });
    expect(revoking.status()).toBe(200);
    await search(page).fill(email);
    await expect(rows(page)).toHaveCount(3);

    await expect(row(page, active.license_key).getByTestId('license-status')).toHaveText('Active');
    await expect(statusActions(page, active.license_key)).toHaveAccessibleName(`Revoke license ${active.license_key}`);
    await expect(row(page, pending.license_key).getByTestId('license-status')).toHaveText('Pending');
    await expect(statusActions(page, pending.license_key)).toHaveCount(1);
    await expect(statusActions(page, pending.license_key)).toHaveAccessibleName(`Revoke license ${pending.license_key}`);
    await expect(row(page, revoked.license_key).getByTestId('license-status')).toHaveText('Revoked');
    await expect(statusActions(page, revoked.license_key)).toHaveAccessibleName(`Activate license ${revoked.license_key}`);

    // Revoking the pending license turns its one action into Activate.
    await page.clock.install();
    await page.getByRole('button', { name: `Revoke license ${pending.license_key}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke license' }).getByRole('button', { name: 'Revoke License' });
    await expect(confirm).toBeVisible();
    // The revoke message clears itself after 5 s (admin spec section 8): still there at 3 s, gone soon after 5. The
    // page's clock stands still from the click and moves only as far as the test says.
    await pauseClock(page);
    await confirm.click();
    const message = page.getByText('License revoked successfully');
    await expect(message).toBeVisible();
    await page.clock.runFor(3000);
    await expect(message).toBeVisible();
    await page.clock.runFor(2100);
    await expect(message).toHaveCount(0);
    await page.clock.resume();
    await expect(row(page, pending.license_key).getByTestId('license-status')).toHaveText('Revoked');
    await expect(statusActions(page, pending.license_key)).toHaveAccessibleName(`Activate license ${pending.license_key}`);
  });

  test('shows activations as a progress bar capped at 100% and deletes with the device count', async ({ page }) => {
    const token = await adminToken(page);
    const license = await issueLicense(page, token, { user_email: `${marker}@portal.test`, expires_at: isoDate(90), max_activations: 4 });
    await activateServer(page, license.license_key, 1);
    await search(page).fill(license.license_key);
    const bar = row(page, license.license_key).getByRole('progressbar');
    await expect(bar).toHaveAttribute('aria-valuenow', '25');
    await expect(bar).toHaveAccessibleName('1 of 4 activations in use');

    await activateServer(page, license.license_key, 2);
    // More devices hold seats than the new maximum allows: the bar stays full width.
    const lowered = await page.request.put(`/api/admin/licenses/${license.id}`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { max_activations: 1 },
    });
    expect(lowered.status()).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row(page, license.license_key).getByTestId('license-activations')).toHaveText('2 / 1');
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
    const widths = await bar.evaluate((section) => [
      section.getBoundingClientRect().width,
      section.parentElement!.getBoundingClientRect().width,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);

    await page.clock.install();
    await page.getByRole('button', { name: `Delete license ${license.license_key}` }).click();
    await expect(page.getByRole('dialog')).toContainText('Deactivate all installations using it (2 active now)');
    // The delete message clears itself after 8 s, not 5: the page's clock stands still from the click on.
    await pauseClock(page);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete License' }).click();
    const message = page.getByText(/and revoked on license server\. 2 installations deactivated\.$/);
    await expect(message).toBeVisible();
    await page.clock.runFor(6000);
    await expect(message).toBeVisible();
    await page.clock.runFor(2100);
    await expect(message).toHaveCount(0);
    await page.clock.resume();
    await expect(page.getByTestId('licenses-empty')).toBeVisible();
  });

  test('shows what the server refuses as the error it is, never as a success', async ({ page }) => {
    await page.getByRole('button', { name: 'Create License' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create License' });
    await dialog.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: 'StreamHub Basic' }).click();
    await dialog.getByRole('textbox', { name: 'User email' }).fill(`${marker}@portal.test`);
    await dialog.getByLabel('Expires at').fill(isoDate(30));
    await dialog.getByRole('textbox', { name: 'License key (optional)' }).fill('not-a-key');
    await dialog.getByRole('button', { name: 'Create License' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Failed to create license: License key must be SH- followed by');
    await expect(page.getByText(/created successfully/)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await search(page).fill(marker);
    await expect(page.getByTestId('licenses-empty')).toBeVisible();
  });

  test('syncs with the license server (this portal itself), and exports CSV and JSON', async ({ page }) => {
    const token = await adminToken(page);
    const license = await issueLicense(page, token, { user_email: `${marker}@portal.test`, expires_at: isoDate(60) });
    await expect(page.getByTestId('license-server-line')).toHaveText('License server: this portal');
    await page.getByRole('button', { name: 'Sync with License Server' }).click();
    await expect(page.getByText(/^Sync completed! 0 new licenses, \d+ updated$/)).toBeVisible();
    await expect(page.getByTestId('licenses-sync-status')).toHaveText(/Last sync: \w{3} \d{1,2}, \d{4}/);
    await expect(page.getByTestId('licenses-sync-status')).not.toContainText('Sync recommended');
    await expect(page.getByTestId('license-stats')).toContainText('Total licenses');

    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(1);
    for (const format of ['csv', 'json'] as const) {
      await page.getByRole('button', { name: 'Export' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: `Export as ${format.toUpperCase()}` }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^licenses_\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
      const text = readFileSync((await download.path())!, 'utf8');
      if (format === 'csv') {
        expect(text.split(/\r?\n/)[0]).toContain('license_key');
        expect(text).toContain(license.license_key);
      } else {
        const exported = JSON.parse(text) as Array<{ license_key: string }>;
        expect(exported.map((entry) => entry.license_key)).toEqual([license.license_key]);
      }
    }
  });

  test('has no serious or critical accessibility violations, with the modals open too', async ({ page }) => {
    const token = await adminToken(page);
    const license = await issueLicense(page, token, { user_email: `${marker}@portal.test`, expires_at: isoDate(10), max_activations: 2 });
    await activateServer(page, license.license_key, 1);
    await search(page).fill(license.license_key);
    await expect(rows(page)).toHaveCount(1);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The Create modal as it opens.
    await page.getByRole('button', { name: 'Create License' }).click();
    await expect(page.getByRole('dialog').getByRole('combobox', { name: 'Product' })).toBeEnabled();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByRole('button', { name: `Revoke license ${license.license_key}` }).click();
    await expect(page.getByRole('dialog', { name: 'Revoke license' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByRole('button', { name: `Delete license ${license.license_key}` }).click();
    await expect(page.getByRole('dialog', { name: 'Delete license' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(row(page, license.license_key).getByTestId('license-status')).toHaveText('Active');
  });

  test('fits a 390 px phone: the table scrolls inside its own container', async ({ page }) => {
    const token = await adminToken(page);
    await issueLicense(page, token, { user_email: `${marker}@portal.test`, expires_at: isoDate(60) });
    await page.setViewportSize({ width: 390, height: 844 });
    await search(page).fill(marker);
    await expect(rows(page)).toHaveCount(1);
    await expect.poll(() => fitsViewport(page)).toBe(true);
    // The table keeps its columns and scrolls sideways inside a container narrower than itself.
    const scrolls = await page.getByTestId('licenses-table').evaluate((table) => {
      for (let node = table.parentElement; node && node !== document.body; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && node.scrollWidth > node.clientWidth)
          return node.clientWidth <= window.innerWidth;
      }
      return false;
    });
    expect(scrolls).toBe(true);
    await page.getByRole('button', { name: 'Create License' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
  });
});
