import { expect, Page, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN, createVerifiedClient, ensureRelease } from './support/portal';

const catalog = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), `../src/i18n/${language}.json`), 'utf8'));

/**
 * The English texts that must not show on a German screen: each catalog entry whose German differs, as its longest
 * run of words outside ICU arguments ({name}, plurals), where that run is long enough to be a phrase rather than a
 * word both languages share ("Status", "E-Mail").
 */
function englishPhrases(): Map<string, string> {
  const [english, german] = [catalog('en'), catalog('de')];
  const phrases = new Map<string, string>();
  for (const [id, text] of Object.entries(english)) {
    if (german[id] === text) continue;
    const longest = text
      .split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|<[^>]+>/)
      .map((part) => part.trim())
      .sort((a, b) => b.length - a.length)[0];
    if (longest && longest.length >= 12 && longest.includes(' ') && !german[id].includes(longest)) phrases.set(longest, id);
  }
  return phrases;
}

async function englishOn(page: Page, phrases: Map<string, string>): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...phrases].filter(([phrase]) => text.includes(phrase)).map(([phrase, id]) => `${id}: "${phrase}"`);
}

test.describe('German screens', () => {
  const phrases = englishPhrases();

  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('locale', 'de'));
  });

  test('show no English text of the catalog, signed out and as a customer', async ({ page }) => {
    expect(phrases.size).toBeGreaterThan(200);
    await ensureRelease(page);
    for (const path of ['/', '/login', '/register', '/forgot-password']) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(page.locator('main, form').first()).toBeVisible();
      expect(await englishOn(page, phrases), path).toEqual([]);
    }
    const client = await createVerifiedClient(page);
    await page.goto('/login');
    await page.getByLabel('E-Mail').fill(client.email);
    await page.getByRole('textbox', { name: 'Passwort' }).fill(client.password);
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('test-license-tile')).toBeVisible();
    expect(await englishOn(page, phrases), '/dashboard').toEqual([]);
    await page.goto('/dashboard/profile');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    expect(await englishOn(page, phrases), '/dashboard/profile').toEqual([]);
  });

  test('show no English text of the catalog in the admin area', async ({ page }) => {
    await page.goto('/secret-admin');
    await page.getByLabel('E-Mail').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Passwort' }).fill(ADMIN.password);
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/secret-admin\/dashboard$/);
    for (const path of ['dashboard', 'users', 'versions', 'licenses', 'files', 'logs', 'profile']) {
      await page.goto(`/secret-admin/${path}`);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // Lists and figures arrive after the frame: wait until nothing is loading.
      await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 15_000 });
      expect(await englishOn(page, phrases), path).toEqual([]);
    }
  });
});
