import { expect, Page, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { adminToken, createVersionByApi, fitsViewport, loginAsAdmin, uploadFileByApi } from './support/portal';

/** Every admin list, and whether its rows have actions; System Logs has none, and its rows' level is what must stay in view. */
const LISTS = [
  { name: 'Users', path: '/secret-admin/users', table: 'users-table', actions: true },
  { name: 'Licenses', path: '/secret-admin/licenses', table: 'licenses-table', actions: true },
  { name: 'Versions', path: '/secret-admin/versions', table: 'versions-table', actions: true },
  { name: 'Files', path: '/secret-admin/files', table: 'files-table', actions: true },
  { name: 'System Logs', path: '/secret-admin/logs', table: 'logs-table', actions: false, status: 'log-level' },
] as const;

const marker = randomBytes(3).toString('hex');
// Long addresses and names, as real ones are: they must not push anything out of sight.
const longEmail = `maximiliane.mustermann-schmidt.${marker}@example-enterprise-company.com`;
let licenseKey: string | undefined;

/** One of each kind of row, with the longest texts the lists show: an unverified user (four actions), a license, a version with its file, a distribution file. */
async function seed(page: Page) {
  if (licenseKey) return;
  const token = await adminToken(page);
  const headers = { Authorization: `Bearer ${token}` };
  const user = await page.request.post('/api/admin/users', {
    headers,
    data: {
      first_name: 'Maximiliane',
      last_name: 'Mustermann-Schmidt',
      email: longEmail,
      password: 'secret-1x',
      is_verified: false,
      is_active: true,
    },
  });
  expect(user.status()).toBe(201);
  const license = await page.request.post('/api/admin/licenses', {
    headers,
    data: {
      product_name: 'StreamHub Pro',
      user_email: longEmail,
      expires_at: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      max_activations: 3,
    },
  });
  expect(license.status()).toBe(201);
  const key = (await license.json()).data.license_key as string;
  const version = await createVersionByApi(
    page,
    token,
    {
      version: `7.${parseInt(marker, 16) % 1000}.${Date.now() % 1000}`,
      release_date: '2026-03-02',
      changelog: 'A long changelog: the new encoder pipeline, SRT ingest, WebRTC output and a rewritten admin console.',
    },
    { name: `streamhub-${marker}.zip`, buffer: randomBytes(2048) },
  );
  await uploadFileByApi(page, token, {
    version_id: version.id,
    os_type: 'linux',
    architecture: 'arm64',
    name: `streamhub-server-${marker}-linux-arm64-with-a-long-distribution-file-name.zip`,
    bytes: randomBytes(4096),
  });
  licenseKey = key;
}

/**
 * What of each row lies outside the table's visible box or the viewport: its first cell, the buttons of its Actions
 * cell (the last one), and its status (by test id) if given. The box is as the page shows it, not scrolled.
 */
async function outOfSight(page: Page, table: string, actions: boolean, status?: string): Promise<string[]> {
  return page.getByTestId(table).evaluate(
    (element, { withActions, statusId }) => {
      const box = element.parentElement!.getBoundingClientRect();
      const left = Math.max(0, box.left) - 1;
      const right = Math.min(window.innerWidth, box.right) + 1;
      const problems: string[] = [];
      element.querySelectorAll('tbody tr').forEach((row, index) => {
        const cells = row.querySelectorAll(':scope > td');
        const check = (what: string, rect: DOMRect) => {
          if (rect.left < left || rect.right > right)
            problems.push(
              `row ${index + 1}: ${what} at ${Math.round(rect.left)}–${Math.round(rect.right)} px, box ${Math.round(left)}–${Math.round(right)} px`,
            );
        };
        check('first cell', cells[0].getBoundingClientRect());
        if (statusId) check('status', row.querySelector(`[data-testid="${statusId}"]`)!.getBoundingClientRect());
        if (!withActions) return;
        const buttons = cells[cells.length - 1].querySelectorAll('button');
        if (buttons.length === 0) problems.push(`row ${index + 1}: no actions`);
        buttons.forEach((button) => check(`action "${button.getAttribute('aria-label')}"`, button.getBoundingClientRect()));
      });
      return problems;
    },
    { withActions: actions, statusId: status },
  );
}

/** Whether the table's box scrolls sideways. */
const scrollsSideways = (page: Page, table: string) =>
  page.getByTestId(table).evaluate((element) => element.parentElement!.scrollWidth > element.parentElement!.clientWidth + 1);

test.describe('Admin tables', () => {
  test.beforeEach(async ({ page }) => {
    await loginAsAdmin(page);
    await seed(page);
  });

  for (const list of LISTS)
    for (const width of [1280, 390]) {
      test(`${list.name} at ${width} px, in English and German: every row's first column and actions in view${width > 500 ? ', no sideways scrolling' : ''}`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        for (const locale of ['en', 'de']) {
          await page.evaluate((value) => localStorage.setItem('locale', value), locale);
          await page.goto(list.path);
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          const rows = page.getByTestId(list.table).locator('tbody tr');
          await expect(rows.first()).toBeVisible();
          expect(await rows.count()).toBeGreaterThan(0);
          await expect.poll(() => fitsViewport(page)).toBe(true);
          // The table has settled on its layout once nothing is left out of sight.
          await expect.poll(() => outOfSight(page, list.table, list.actions, 'status' in list ? list.status : undefined)).toEqual([]);
          if (width > 500) expect(await scrollsSideways(page, list.table)).toBe(false);
          await page.screenshot({ path: `e2e/screenshots/admin-table-${list.table}-${locale}-${width}.png`, fullPage: true });

          if (list.actions && width < 500) {
            // On a phone a row's several actions are one menu, whose items open inside the screen.
            const menu = rows.first().getByRole('button', { name: locale === 'en' ? /^Actions for / : /^Aktionen für / });
            if ((await menu.count()) > 0) {
              await menu.click();
              const items = page.getByRole('menuitem');
              await expect(items.first()).toBeVisible();
              for (const item of await items.all()) {
                const rect = (await item.boundingBox())!;
                expect(rect.x).toBeGreaterThanOrEqual(0);
                expect(rect.x + rect.width).toBeLessThanOrEqual(width);
              }
              await page.keyboard.press('Escape');
              await expect(items).toHaveCount(0);
            }
          }
        }
        await page.evaluate(() => localStorage.removeItem('locale'));
      });
    }

  test('a phone shows a license row’s actions as one menu that does what the buttons do', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/secret-admin/licenses');
    await page.getByPlaceholder('Search licenses...').fill(licenseKey!);
    await expect(page).toHaveURL(/search=/);
    const row = page.getByTestId('licenses-table').locator('tbody tr');
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Actions for ${licenseKey}` }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['Revoke', 'Release access', 'Devices', 'Copy key to clipboard', 'Delete']);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete license' })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toHaveCount(1);
  });
});
