import { expect, Page, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import {
  ADMIN,
  adminToken,
  createVerifiedClient,
  createVersionByApi,
  fitsViewport,
  loginAsAdmin,
  SCREENS,
  seriousAxeViolations,
  showAs,
} from './support/portal';

const stat = (page: Page, key: 'users' | 'licenses' | 'downloads' | 'revenue') => page.getByTestId(`dashboard-stat-${key}`);
const refresh = (page: Page) => page.getByRole('button', { name: 'Refresh' });

/** The users total as the server counts it. */
async function usersTotal(page: Page): Promise<number> {
  const token = await adminToken(page);
  const response = await page.request.get('/api/admin/users?limit=5', { headers: { Authorization: `Bearer ${token}` } });
  return (await response.json()).meta.overall_total as number;
}

/** The dashboard's statistics as the server gives them. */
async function statistics(page: Page) {
  const token = await adminToken(page);
  const response = await page.request.get('/api/admin/dashboard', { headers: { Authorization: `Bearer ${token}` } });
  return (await response.json()).data.statistics as {
    downloads: { total: number };
    orders: { revenue_total: number; currency: string };
  };
}

/** A headline figure as the cards write it: in full below 10,000, in short form (12.3K) from there. */
const headline = (value: number, options: Intl.NumberFormatOptions = {}) =>
  new Intl.NumberFormat('en-US', {
    ...options,
    ...(value >= 10_000 ? { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 } : {}),
  }).format(value);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

test.describe('Admin Dashboard', () => {
  test.beforeEach(async ({ page }) => {
    await loginAsAdmin(page);
  });

  test('shows the server’s figures, and a new customer after Refresh', async ({ page }) => {
    await expect(stat(page, 'users')).toBeVisible();
    expect(Number(await stat(page, 'users').getAttribute('title'))).toBe(await usersTotal(page));
    // Figures below 10,000 in full (2 downloads read "2", not "0K"; $60 reads "$60.00", not "$0.1K").
    const { downloads, orders } = await statistics(page);
    await expect(stat(page, 'downloads')).toHaveText(headline(downloads.total));
    await expect(stat(page, 'revenue')).toHaveText(headline(orders.revenue_total, { style: 'currency', currency: orders.currency }));
    await expect(stat(page, 'revenue')).toHaveText(/^\$[\d,.]+K?$/);

    await createVerifiedClient(page);
    const expected = await usersTotal(page);
    await expect(async () => {
      await refresh(page).click();
      await expect(stat(page, 'users')).toHaveAttribute('title', String(expected), { timeout: 1000 });
    }).toPass();
    await expect(page.getByTestId('dashboard-updated')).toContainText('Last updated:');
  });

  test('an admin action done in the UI shows in Recent Activity with the admin and the address', async ({ page }) => {
    const email = `dash-${randomBytes(3).toString('hex')}@portal.test`;
    const token = await adminToken(page);
    const created = await page.request.post('/api/admin/users', {
      headers: { Authorization: `Bearer ${token}` },
      data: { first_name: 'Dana', last_name: 'Board', email, password: 'secret-1x', is_verified: true, is_active: true },
    });
    expect(created.status()).toBe(201);
    // More than five entries exist whatever ran before, so the list shows exactly its five newest.
    for (const extra of ['a', 'b']) {
      const another = await page.request.post('/api/admin/users', {
        headers: { Authorization: `Bearer ${token}` },
        data: {
          first_name: 'Dana',
          last_name: extra,
          email: `${extra}-${email}`,
          password: 'secret-1x',
          is_verified: true,
          is_active: true,
        },
      });
      expect(another.status()).toBe(201);
    }

    await page.goto('/secret-admin/users');
    await page.getByPlaceholder('Search by name or email...').fill(email);
    // The search reaches the URL 300 ms after the last key; leaving before that would bring the list back.
    await expect(page).toHaveURL(/search=/);
    await page.getByRole('button', { name: `Deactivate ${email}`, exact: true }).click();
    await expect(page.getByText('User deactivated successfully!')).toBeVisible();

    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const entry = page.getByTestId('recent-activity').locator('[data-level]').filter({ hasText: email }).first();
    await expect(async () => {
      await refresh(page).click();
      await expect(entry).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(entry).toContainText(ADMIN.email);
    await expect(entry).toContainText('127.0.0.1');
    await expect(entry).toHaveAttribute('data-level', 'info');
    await expect(page.getByTestId('recent-activity').locator('[data-level]')).toHaveCount(5);
  });

  test('shows System Health from the server, and every chart', async ({ page }) => {
    await expect(page.getByTestId('health-status')).toHaveText(/Healthy|Warning|Error/);
    await expect(page.getByTestId('health-uptime')).toHaveText(/^\d+d \d+h \d+m$/);
    await expect(page.getByTestId('health-database-size')).toHaveText(/^\d[\d.,]* (Bytes|KB|MB|GB)$/);
    await expect(page.getByTestId('health-storage-used')).toHaveText(/^\d[\d.,]* (Bytes|KB|MB|GB)$/);
    await expect(page.getByTestId('health-jobs').or(page.getByTestId('health-jobs-none'))).toBeVisible();
    for (const chart of ['chart-downloads', 'chart-licenses', 'chart-devices', 'chart-fleet']) {
      await expect(page.getByTestId(chart).locator('svg.recharts-surface').first()).toBeVisible();
    }
    await expect(page.getByTestId('chart-downloads')).toContainText(/\d+ downloads? from/);
    // The fleet's versions: the share on the newest stable release, or that none is published yet.
    await expect(page.getByTestId('chart-fleet')).toContainText(
      /\d+ ?% of \d+ servers? run the newest stable release, \S+|\d+ servers? holds? a seat; no stable release is published yet/,
    );
    // The weekly axis starts on the day the subtitle names, and every axis counts in whole numbers.
    const licenses = page.getByTestId('chart-licenses');
    const from = (await licenses.getByText(/ from .+ to /).innerText()).match(/ from (.+) to /)![1];
    await expect(licenses.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').first()).toHaveText(from);
    for (const chart of ['chart-downloads', 'chart-licenses', 'chart-devices']) {
      const ticks = await page
        .getByTestId(chart)
        .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
        .allTextContents();
      expect(ticks.length, chart).toBeGreaterThan(1);
      for (const tick of ticks) expect(tick, chart).toMatch(/^\d{1,3}(,\d{3})*$/);
    }
  });

  test('charts the versions the servers run, and the share on the newest stable release', async ({ page }) => {
    const token = await adminToken(page);
    const auth = { Authorization: `Bearer ${token}` };
    // Above every other spec's versions: the newest stable release while this test runs.
    const newest = `${3_000_000 + (Date.now() % 100_000)}.0.0`;
    const version = await createVersionByApi(page, token, { version: newest, release_date: '2026-12-01' });
    try {
      const license = await page.request.post('/api/admin/licenses', {
        headers: auth,
        data: { product_name: 'StreamHub Pro', user_email: 'fleet@portal.test', expires_at: '2030-01-01', max_activations: 3 },
      });
      expect(license.status()).toBe(201);
      const key = (await license.json()).data.license_key as string;
      for (const [i, running] of [newest, newest, '1.0.0'].entries()) {
        const answer = await page.request.post('/api/license-server/activate', {
          data: {
            license_key: key,
            server_uid: `fleet-${randomBytes(6).toString('hex')}-${i}`,
            nonce: randomBytes(16).toString('hex'),
            version: running,
          },
        });
        expect((await answer.json()).data.code).toBe('VALID');
      }
      const fleet = page.getByTestId('chart-fleet');
      await expect(async () => {
        await refresh(page).click();
        await expect(fleet).toContainText(
          new RegExp(`\\d+ ?% of \\d+ servers run the newest stable release, ${newest.replace(/\./g, '\\.')}`),
          {
            timeout: 1000,
          },
        );
      }).toPass();
      await expect(fleet.locator('.recharts-legend-wrapper')).toContainText(newest);
      for (const [width, locale] of SCREENS) {
        await showAs(page, width, locale);
        await expect(fleet.locator('svg.recharts-surface').first()).toBeVisible();
        await expect(fleet).toContainText(locale === 'en' ? 'Versions your servers run' : 'Versionen Ihrer Server');
        await expect.poll(() => fitsViewport(page)).toBe(true);
        await fleet.screenshot({ path: `e2e/screenshots/admin-dashboard-fleet-${locale}-${width}.png` });
      }
      await page.evaluate(() => localStorage.setItem('locale', 'en'));
    } finally {
      expect((await page.request.delete(`/api/admin/versions/${version.id}`, { headers: auth })).status()).toBe(200);
    }
  });

  test('shows the license-server sync in System Health, and a license server that does not answer as a warning with its reason', async ({
    page,
  }) => {
    const sync = page.getByTestId('health-license-server');
    await expect(sync.getByTestId('health-sync-server')).toHaveText('This portal');
    await expect(sync.getByTestId('health-sync-reachable')).toHaveCount(0);

    const headers = { Authorization: `Bearer ${await adminToken(page)}` };
    const setting = async (key: string, value: string) =>
      expect((await page.request.patch('/api/admin/settings', { headers, data: { key, value } })).status()).toBe(200);
    // A port that was free a moment ago: nothing listens there, the connection is refused at once.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    await setting('license_server.api_token', 'a-token-for-a-server-that-is-not-there');
    await setting('license_server.url', nowhere);
    try {
      await expect(async () => {
        await refresh(page).click();
        await expect(sync.getByTestId('health-sync-full-sync')).toContainText(/^Failing, retrying: 0 of \d+ records pushed/, {
          timeout: 1000,
        });
      }).toPass();
      await expect(sync.getByTestId('health-sync-reachable')).toHaveText('Unreachable');
      await expect(sync.getByTestId('health-sync-server')).toHaveText(nowhere);
      await expect(sync.getByTestId('health-sync-last-push')).toHaveText('Never');
      await expect(sync.getByTestId('health-sync-pending')).toHaveText(/^\d+ licenses? unconfirmed, 0 queued$/);
      await expect(sync.getByTestId('health-sync-reconcile')).toHaveText('Never');
      await expect(page.getByTestId('health-status')).toHaveText('Warning');
      await expect(page.getByTestId('health-reasons')).toContainText(`The license server at ${nowhere} cannot be reached (ECONNREFUSED)`);
      await expect(page.getByTestId('health-reasons')).toContainText('The full sync with the license server is failing');

      // The actions: a full sync is already running, nothing is queued and no drift is known, so only Reconcile
      // can be pressed; against a server that is not there it fails with the reason, and says so.
      const actions = sync.getByTestId('license-server-actions');
      await expect(actions.getByRole('button', { name: 'Full sync' })).toBeDisabled();
      await expect(actions.getByRole('button', { name: 'Repair drift' })).toBeDisabled();
      await expect(actions.getByRole('button', { name: 'Retry now' })).toBeDisabled();
      await actions.getByRole('button', { name: 'Reconcile' }).click();
      await expect(actions.getByRole('alert')).toContainText(/^The action failed: .*ECONNREFUSED/);
      await expect(sync.getByTestId('health-sync-reconcile')).toHaveText('Failed');
      await page.setViewportSize({ width: 390, height: 900 });
      await expect.poll(() => fitsViewport(page)).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await sync.screenshot({ path: 'e2e/screenshots/admin-dashboard-sync-en-390.png' });

      await page.evaluate(() => localStorage.setItem('locale', 'de'));
      await page.reload();
      await expect(sync.getByText('Lizenzserver')).toBeVisible();
      await expect(sync.getByTestId('health-sync-reachable')).toHaveText('Nicht erreichbar');
      await expect(sync.getByTestId('health-sync-full-sync')).toContainText(
        /^Fehlgeschlagen, wird wiederholt: 0 von \d+ Datensätzen gesendet/,
      );
      await sync.screenshot({ path: 'e2e/screenshots/admin-dashboard-sync-de-390.png' });
    } finally {
      await page.evaluate(() => localStorage.removeItem('locale'));
      await setting('license_server.url', '');
      await setting('license_server.api_token', '');
    }
    await page.reload();
    await expect(sync.getByTestId('health-sync-server')).toHaveText('This portal');
  });

  test('says which data failed instead of showing zeros, and loads it again on Retry', async ({ page }) => {
    let failing = true;
    await page.route('**/api/admin/system/health', (route) =>
      failing ? route.fulfill({ status: 503, json: { statusCode: 503, message: 'Database unavailable' } }) : route.fallback(),
    );
    // A 503 is tried once more after a pause: the page's clock runs that pause out once the first one is in.
    await page.clock.install();
    const firstRefusal = page.waitForResponse((response) => response.url().endsWith('/api/admin/system/health'));
    await page.reload();
    await firstRefusal;
    await page.clock.fastForward(5_000);
    const banner = page.getByRole('alert').filter({ hasText: 'Dashboard Issue' });
    await expect(banner).toContainText('Some dashboard data could not be loaded from the server.');
    await expect(banner).toContainText('Database unavailable');
    await expect(page.getByTestId('health-status')).toHaveCount(0);
    await expect(stat(page, 'users')).toBeVisible();

    failing = false;
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('health-status')).toBeVisible();
  });

  test('reloads by itself every 30 seconds', async ({ page }) => {
    await page.clock.install();
    await page.reload();
    await expect(stat(page, 'users')).toBeVisible();
    const next = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/admin/dashboard');
    await page.clock.fastForward(30_000);
    await next;
  });

  for (const width of [1280, 390]) {
    test(`fits ${width} px and has no serious accessibility violations, in English and German`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByTestId('chart-devices').locator('svg.recharts-surface').first()).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/admin-dashboard-en-${width}.png`, fullPage: true });

      await page.evaluate(() => localStorage.setItem('locale', 'de'));
      await page.reload();
      await expect(page.getByText('Letzte Aktivitäten')).toBeVisible();
      await expect(page.getByText('Benutzer gesamt')).toBeVisible();
      await expect(page.getByTestId('chart-devices').locator('svg.recharts-surface').first()).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/admin-dashboard-de-${width}.png`, fullPage: true });
      await page.evaluate(() => localStorage.removeItem('locale'));
    });
  }
});
