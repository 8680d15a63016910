import { expect, Page, test } from '@playwright/test';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ADMIN, adminToken, fitsViewport, loginAsAdmin, seriousAxeViolations } from './support/portal';

const rows = (page: Page) => page.getByTestId('logs-table').locator('tbody tr');
const search = (page: Page) => page.getByPlaceholder('Search message, user, IP or action...');
const refresh = (page: Page) => page.getByRole('button', { name: 'Refresh' });

async function chooseType(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Log type' }).click();
  await page.getByRole('option', { name: label }).click();
}

/** A license issued by the admin, validated once by a streaming server, so the remote log has an entry for it. */
async function validatedLicense(page: Page): Promise<{ key: string; host: string }> {
  const token = await adminToken(page);
  const email = `logs-${randomBytes(3).toString('hex')}@portal.test`;
  const issued = await page.request.post('/api/admin/licenses', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      product_name: 'StreamHub Pro',
      user_email: email,
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      max_activations: 1,
    },
  });
  expect(issued.status()).toBe(201);
  const key = (await issued.json()).data.license_key as string;
  const host = `edge-${randomBytes(3).toString('hex')}.example.net`;
  const activated = await page.request.post('/api/license-server/activate', {
    data: {
      license_key: key,
      server_uid: `srv-${randomUUID()}`,
      hostname: host,
      product: 'StreamHub',
      version: '2.1.0',
      device_name: 'Edge',
      nonce: randomBytes(16).toString('base64url'),
    },
  });
  expect(activated.status()).toBe(200);
  return { key, host };
}

test.describe('System Logs', () => {
  test.beforeEach(async ({ page }) => {
    await loginAsAdmin(page);
  });

  test('an admin action done in the UI is in the system log within one refresh, with the admin and the address', async ({ page }) => {
    const email = `logged-${randomBytes(3).toString('hex')}@portal.test`;
    const token = await adminToken(page);
    const created = await page.request.post('/api/admin/users', {
      headers: { Authorization: `Bearer ${token}` },
      data: { first_name: 'Lou', last_name: 'Logged', email, password: 'secret-1x', is_verified: true, is_active: true },
    });
    expect(created.status()).toBe(201);
    await page.goto('/secret-admin/users');
    await page.getByPlaceholder('Search by name or email...').fill(email);
    // The search reaches the URL 300 ms after the last key; leaving before that would bring the list back.
    await expect(page).toHaveURL(/search=/);
    await page.getByRole('button', { name: `Deactivate ${email}` }).click();
    await expect(page.getByText('User deactivated successfully!')).toBeVisible();

    await page.getByRole('link', { name: 'Logs' }).click();
    await expect(page.getByRole('heading', { name: 'System Logs' })).toBeVisible();
    await expect(page.getByText('Monitor system activity and troubleshoot issues')).toBeVisible();
    const row = rows(page).filter({ hasText: `Activate/deactivate user: ${email}` });
    await expect(async () => {
      await refresh(page).click();
      await expect(row).toHaveCount(1, { timeout: 1000 });
    }).toPass();
    await expect(row).toContainText(ADMIN.email);
    await expect(row).toContainText('127.0.0.1');
    await expect(row).toContainText('INFO');
    await expect(page.getByTestId('logs-caption')).toContainText(/^Showing 1-\d+ of \d+ logs, Auto-refresh: 30s$/);

    // Search runs on the server and lands in the URL, so the view can be linked.
    await search(page).fill(email);
    await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(email).replace(/\./g, '\\.')}`));
    // The previous rows stay on screen while the search loads: wait until every row shown is a match.
    await expect(rows(page).filter({ hasNotText: email })).toHaveCount(0);
    await expect(rows(page)).not.toHaveCount(0);
    await page.reload();
    await expect(search(page)).toHaveValue(email);
    await expect(row).toHaveCount(1);
  });

  test('shows a remote entry with its Remote badge and Remote Context', async ({ page }) => {
    const { key, host } = await validatedLicense(page);
    await page.goto('/secret-admin/logs');
    await chooseType(page, 'Remote Logs');
    await expect(page).toHaveURL(/type=remote/);
    await search(page).fill(host);
    const row = rows(page).filter({ hasText: host }).first();
    await expect(row).toBeVisible();
    await expect(row.getByText('Remote', { exact: true })).toBeVisible();
    const context = row.getByTestId('remote-context');
    await expect(context).toContainText(host);
    await expect(context).toContainText(key);
    await expect(context).toContainText('StreamHub 2.1.0');
    await expect(context).toContainText(/Valid\s*Yes/);
  });

  test('lists access log entries, filters by level and day, and sorts by time', async ({ page }) => {
    await page.goto('/secret-admin/logs?type=access');
    await expect(rows(page).first()).toBeVisible();
    await expect(rows(page).first()).toContainText(/(GET|POST|PUT|DELETE) \/api\/\S* → \d{3}/);

    await page.goto('/secret-admin/logs');
    await expect(rows(page).first()).toBeVisible();
    const newestFirst = await rows(page).first().locator('td').first().innerText();
    await page.getByRole('button', { name: 'Time' }).click();
    await expect(page).toHaveURL(/order=asc/);
    await expect(rows(page).first().locator('td').first()).not.toHaveText(newestFirst);

    const filtered = page.waitForResponse((response) => /\/api\/admin\/logs\/system\?.*level=error/.test(response.url()));
    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'ERROR' }).click();
    await expect(page).toHaveURL(/level=error/);
    await filtered;
    await expect(page.locator('[data-testid="logs-table"] tbody tr:not([data-level="error"])')).toHaveCount(0);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/secret-admin/logs?from=${tomorrow}`);
    await expect(page.getByTestId('logs-empty')).toContainText('No logs found');
  });

  test('exports the shown log under the spec’s file name, and says why an export failed', async ({ page }) => {
    await page.goto('/secret-admin/logs');
    await expect(rows(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export as JSON' }).click()]);
    expect(download.suggestedFilename()).toBe(`system_logs_${new Date().toISOString().slice(0, 10)}.json`);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(Array.isArray(exported) ? exported.length : Object.keys(exported).length).toBeGreaterThan(0);

    await page.route('**/api/admin/logs/export?*', (route) =>
      route.fulfill({ status: 503, json: { statusCode: 503, message: 'Database unavailable' } }),
    );
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Export as CSV' }).click();
    await expect(page.getByRole('alert')).toContainText('Failed to export logs: Database unavailable');
  });

  test('clears a log after confirmation, and never the audit trail', async ({ page }) => {
    await validatedLicense(page);
    await page.goto('/secret-admin/logs?type=remote');
    await expect(rows(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'Clear Logs' }).click();
    await expect(page.getByTestId('logs-clear-confirmation')).toContainText('Are you sure you want to clear all Remote Logs?');
    await page.getByRole('dialog').getByRole('button', { name: 'Clear Logs' }).click();
    await expect(page.getByText('Remote Logs cleared')).toBeVisible();
    await expect(page.getByTestId('logs-empty')).toBeVisible();

    await page.goto('/secret-admin/logs?type=local');
    await expect(page.getByRole('button', { name: 'Clear Logs' })).toBeDisabled();
    // The clearing itself is in the audit trail.
    await expect(rows(page).filter({ hasText: /clear/i }).first()).toBeVisible();
  });

  test('shows a failed load as its error, never as an empty log', async ({ page }) => {
    await page.route('**/api/admin/logs/system?*', (route) =>
      route.fulfill({ status: 500, json: { statusCode: 500, message: 'Internal server error' } }),
    );
    await page.goto('/secret-admin/logs');
    await expect(page.getByRole('alert')).toContainText('Failed to load logs: Internal server error');
    await expect(page.getByTestId('logs-empty')).toHaveCount(0);
  });

  for (const width of [1280, 390]) {
    test(`fits ${width} px and has no serious accessibility violations, in English and German`, async ({ page }) => {
      await validatedLicense(page);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/secret-admin/logs');
      await expect(rows(page).first()).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/admin-logs-en-${width}.png`, fullPage: true });

      await page.evaluate(() => localStorage.setItem('locale', 'de'));
      await page.goto('/secret-admin/logs?type=remote');
      await expect(page.getByRole('heading', { name: 'Systemprotokolle' })).toBeVisible();
      await expect(rows(page).first()).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/admin-logs-de-${width}.png`, fullPage: true });
      await page.evaluate(() => localStorage.removeItem('locale'));
    });
  }
});
