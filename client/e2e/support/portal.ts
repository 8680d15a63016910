import { createServer, type AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, Locator, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ADMIN = { email: 'admin@portal.test', password: 'admin-password-1' };
const base = () => process.env.E2E_BASE_URL!;

/** The newest verification link mailed to this address (no SMTP in tests: DATA_DIR/mail.log). */
export function verificationLink(email: string): string {
  const log = readFileSync(join(process.env.E2E_DATA_DIR!, 'mail.log'), 'utf8');
  const mail = log
    .split('----\n')
    .filter((entry) => entry.includes(`To: ${email}\n`))
    .at(-1);
  const link = mail?.match(/https?:\/\/\S+\/verify-email\?token=[\w%-]+/)?.[0];
  if (!link) throw new Error(`no verification mail for ${email}`);
  return link;
}

/** Every mail written to DATA_DIR/mail.log for this address, oldest first. */
export function mailsTo(email: string): string[] {
  const file = join(process.env.E2E_DATA_DIR!, 'mail.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('----\n')
    .filter((entry) => entry.includes(`To: ${email}\n`));
}

/**
 * The link to `path` (reset-password, confirm-email …) in the newest mail to this address after the first `after`
 * mails, once it has been written: such mails are sent after the answer, so this waits for it.
 */
export async function mailedLink(email: string, path: string, after = 0): Promise<string> {
  const pattern = new RegExp(`https?://\\S+/${path}\\?token=[\\w%-]+`);
  let link: string | undefined;
  await expect
    .poll(
      () =>
        (link = mailsTo(email)
          .slice(after)
          .reverse()
          .map((mail) => mail.match(pattern)?.[0])
          .find(Boolean)),
      {
        message: `a mail to ${email} with a /${path} link`,
      },
    )
    .toBeTruthy();
  return link!;
}

export const uniqueEmail = (prefix = 'client') => `${prefix}-${randomBytes(4).toString('hex')}@portal.test`;

/** A verified client created through the public API, as a user would through the screens. */
export async function createVerifiedClient(page: Page, overrides: { first_name?: string; last_name?: string } = {}) {
  const email = uniqueEmail();
  const password = 'client-password-1';
  const registration = await page.request.post(`${base()}/api/register`, {
    data: {
      first_name: overrides.first_name ?? 'Casey',
      last_name: overrides.last_name ?? 'Client',
      email,
      password,
      password_confirmation: password,
    },
  });
  expect(registration.status()).toBe(201);
  const token = new URL(verificationLink(email)).searchParams.get('token');
  expect((await page.request.post(`${base()}/api/verify-email`, { data: { token } })).status()).toBe(200);
  return { email, password };
}

export async function loginAsClient(page: Page, credentials: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(credentials.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function loginAsAdmin(page: Page) {
  await page.goto('/secret-admin');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Log in as Admin' }).click();
  await expect(page).toHaveURL(/\/secret-admin\/dashboard$/);
}

/** Serious and critical accessibility violations on the current page (axe-core). */
export async function seriousAxeViolations(page: Page) {
  // A modal still fading in has its text at partial opacity, which axe would report as low contrast.
  // (Endless animations, such as a loader's spin, are not waited for.)
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * True when nothing on the page is wider than the viewport (no sideways scrolling on phones). Use it with
 * expect.poll: after a viewport change the shell collapses its sidebar on the next render, not at once.
 */
export async function fitsViewport(page: Page): Promise<boolean> {
  const overflow = await page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return null;
    // Name the widest element that sticks out, so a failure says where to look.
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)[0];
    return `${document.documentElement.scrollWidth}px > ${window.innerWidth}px, e.g. <${wide?.tagName.toLowerCase()} class="${wide?.className}">`;
  });
  if (overflow) console.warn(`page wider than the viewport: ${overflow}`);
  return overflow === null;
}

/** An admin's bearer token from the admin login API, for setting data up as another admin would. */
export async function adminToken(page: Page): Promise<string> {
  const login = await page.request.post(`${base()}/api/admin/login`, { data: ADMIN });
  expect(login.status()).toBe(200);
  return (await login.json()).data.token as string;
}

export interface CreatedVersion {
  id: number;
  version: string;
  is_latest: boolean;
}

/**
 * A version uploaded through the admin API (multipart POST /api/admin/upload), as the Versions screen would;
 * undefined fields are left out, and `file` attaches the version's own archive.
 */
export async function createVersionByApi(
  page: Page,
  token: string,
  fields: { version: string; release_date: string } & Record<string, string | boolean | undefined>,
  file?: { name: string; buffer: Buffer },
): Promise<CreatedVersion> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) multipart[key] = String(value);
  if (file) multipart.file = { ...file, mimeType: 'application/octet-stream' };
  const response = await page.request.post(`${base()}/api/admin/upload`, { headers: { Authorization: `Bearer ${token}` }, multipart });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as CreatedVersion;
}

/**
 * Makes sure a version is published: licenses can be requested only once one is. Another worker may be uploading
 * the same one at the same moment, so a duplicate (409) is as good as an upload.
 */
export async function ensureRelease(page: Page, version = '1.0.0'): Promise<void> {
  const token = await adminToken(page);
  const response = await page.request.post(`${base()}/api/admin/upload`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { version, release_date: '2026-01-15' },
  });
  expect([201, 409], await response.text()).toContain(response.status());
}

/** A distribution file uploaded through the admin API (multipart POST /api/admin/distribution-files). */
export async function uploadFileByApi(
  page: Page,
  token: string,
  upload: { version_id: number; os_type: string; architecture: string; name: string; bytes: Buffer },
): Promise<{ id: number; file_name: string; file_hash: string; file_size: number }> {
  const response = await page.request.post(`${base()}/api/admin/distribution-files`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      version_id: String(upload.version_id),
      os_type: upload.os_type,
      architecture: upload.architecture,
      file: { name: upload.name, mimeType: 'application/octet-stream', buffer: upload.bytes },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data;
}

/** Below the lists' 300 ms search debounce: a pause shorter than this between two keys can never send a search. */
const SHORTEST_SENDING_PAUSE_MS = 250;

/**
 * Types `text` into `box` 40 ms a key, well inside the lists' 300 ms search debounce, and returns what the box held
 * before each pause the page itself saw between two keys that was long enough to send a search: on a busy machine a
 * key can come late, and then the debounce rightly sends what was typed so far.
 */
export async function typeQuickly(box: Locator, text: string): Promise<string[]> {
  await box.evaluate((input: HTMLInputElement) => {
    const typed: Array<[number, string]> = [];
    input.addEventListener('input', () => typed.push([performance.now(), input.value]));
    (input as HTMLInputElement & { typed?: Array<[number, string]> }).typed = typed;
  });
  await box.page().keyboard.type(text, { delay: 40 });
  const typed = await box.evaluate((input) => (input as HTMLInputElement & { typed: Array<[number, string]> }).typed);
  return typed.filter(([at], i) => i + 1 < typed.length && typed[i + 1][0] - at >= SHORTEST_SENDING_PAUSE_MS).map(([, value]) => value);
}

/** The searches a quickly typed `term` sent, other than `term` itself, that no pause the page saw explains. */
export function unexplainedSearches(sent: Array<string | null>, term: string, paused: string[]): string[] {
  return sent.filter((search): search is string => search !== null && search !== term && !paused.includes(search));
}

/**
 * The `search` parameter of every GET to this list path from now on (null for a request without one), to prove
 * that typing is debounced into one request.
 */
export function recordListSearches(page: Page, pathname: string): Array<string | null> {
  const searches: Array<string | null> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === pathname) searches.push(url.searchParams.get('search'));
  });
  return searches;
}

/** A local URL where nothing listens (a port just released), for a license server that cannot be reached. */
export async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Stops the page's fake clock (page.clock.install() first) where it stands: its timers wait for runFor or resume. */
export async function pauseClock(page: Page) {
  // The clock runs on while its time is read, so the time aimed at may have passed by then: aim again.
  await expect(async () => {
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
  }).toPass();
}

/** The screens a touched screen is looked at on: each width in each language, English at 1280 first. */
export const SCREENS = [
  [1280, 'en'],
  [390, 'en'],
  [1280, 'de'],
  [390, 'de'],
] as const;

/** Shows the page `width` px wide in `locale` (kept in localStorage), loaded again. */
export async function showAs(page: Page, width: number, locale: 'en' | 'de'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('locale', value), locale);
  await page.setViewportSize({ width, height: 900 });
  await page.reload();
}
