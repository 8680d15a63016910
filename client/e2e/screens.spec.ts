import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVerifiedClient, fitsViewport, loginAsAdmin, loginAsClient } from './support/portal';

// Screenshots of every screen at desktop and phone widths (kept in client/e2e/screenshots for a look),
// each checked for sideways overflow.
const dir = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(dir, { recursive: true });

for (const width of [1280, 390]) {
  test.describe(`screens at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 500 ? 900 : 844 } });

    for (const [name, path] of [
      ['landing', '/'],
      ['login', '/login'],
      ['register', '/register'],
      ['admin-login', '/secret-admin'],
      ['not-found', '/no/such/page'],
    ] as const) {
      test(`${name} fits the screen`, async ({ page }) => {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
        await expect.poll(() => fitsViewport(page)).toBe(true);
      });
    }

    test('client dashboard fits the screen', async ({ page }) => {
      await loginAsClient(page, await createVerifiedClient(page));
      await page.screenshot({ path: join(dir, `dashboard-${width}.png`), fullPage: true });
      await expect.poll(() => fitsViewport(page)).toBe(true);
    });

    test('admin users fits the screen', async ({ page }) => {
      await loginAsAdmin(page);
      await page.goto('/secret-admin/users');
      await expect(page.getByTestId('users-table')).toBeVisible();
      // The sandbox badge sits in the header where there is room, at the top of the page on phones.
      await expect(page.getByTestId(width > 500 ? 'sandbox-payments' : 'sandbox-payments-compact')).toBeVisible();
      await page.screenshot({ path: join(dir, `admin-users-${width}.png`), fullPage: true });
      await expect.poll(() => fitsViewport(page)).toBe(true);
    });
  });
}
