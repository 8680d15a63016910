import { expect, Page, test } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import {
  adminToken,
  createVerifiedClient,
  createVersionByApi,
  fitsViewport,
  loginAsAdmin,
  loginAsClient,
  SCREENS,
  seriousAxeViolations,
  showAs,
  uploadFileByApi,
} from './support/portal';

/** Versions this spec made, deleted (with their files) after the test so later specs see the catalog they expect. */
const created: number[] = [];
/** Above every other spec's majors: this spec's versions come first in the catalog (newest semantic version first). */
const major = () => 2_000_000 + (Date.now() % 100_000);
const YEAR_AHEAD = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/screenshots/release-access-${name}.png`, fullPage: true });

/** A server id that a 50 % rollout reaches, or not (the portal's rule: the first four bytes of its SHA-256, modulo 100). */
function serverId(prefix: string, reached: boolean): string {
  for (let i = 0; ; i++) {
    const uid = `${prefix}-${i}`;
    if (createHash('sha256').update(uid).digest().readUInt32BE(0) % 100 < 50 === reached) return uid;
  }
}

async function licenseFor(page: Page, token: string, email: string, maxActivations = 1) {
  const response = await page.request.post('/api/admin/licenses', {
    headers: { Authorization: `Bearer ${token}` },
    data: { product_name: 'StreamHub Pro', user_email: email, expires_at: YEAR_AHEAD, max_activations: maxActivations },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as { id: number; license_key: string };
}

async function clientToken(page: Page, credentials: { email: string; password: string }) {
  const login = await page.request.post('/api/login', { data: credentials });
  expect(login.status()).toBe(200);
  return (await login.json()).token as string;
}

test.describe('Which releases a license covers', () => {
  test.afterEach(async ({ page }) => {
    const token = await adminToken(page);
    for (const id of created.splice(0)) {
      const response = await page.request.delete(`/api/admin/versions/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status()).toBe(200);
    }
  });

  test('a customer granted beta downloads it, one without is refused, one whose updates ended sees "Renew to get"', async ({
    browser,
    page,
  }) => {
    test.setTimeout(180_000);
    const token = await adminToken(page);
    const run = major();
    const stable = `${run}.0.0`;
    const beta = `${run}.1.0-beta.1`;
    const stableVersion = await createVersionByApi(page, token, {
      version: stable,
      release_date: '2026-11-01',
      changelog: '## Stable\n- Faster HLS',
    });
    created.push(stableVersion.id);
    // A draft: the admin sets its rollout before anyone is offered it, then publishes it.
    const betaVersion = await createVersionByApi(page, token, {
      version: beta,
      release_date: '2026-12-01',
      channel: 'beta',
      state: 'draft',
      changelog: '## Beta\n- Low-latency HLS',
    });
    created.push(betaVersion.id);
    const betaName = `streamhub-${beta}-linux-x64.tar.gz`;
    const betaFile = await uploadFileByApi(page, token, {
      version_id: betaVersion.id,
      os_type: 'linux',
      architecture: 'x64',
      name: betaName,
      bytes: randomBytes(40_000),
    });
    await uploadFileByApi(page, token, {
      version_id: stableVersion.id,
      os_type: 'linux',
      architecture: 'x64',
      name: `streamhub-${stable}-linux-x64.tar.gz`,
      bytes: randomBytes(30_000),
    });

    const granted = await createVerifiedClient(page, { last_name: 'Granted' });
    const without = await createVerifiedClient(page, { last_name: 'Without' });
    const ended = await createVerifiedClient(page, { last_name: 'Ended' });
    await licenseFor(page, token, granted.email, 2);
    const endedLicense = await licenseFor(page, token, ended.email);

    // The admin grants the beta channel to one customer (every license of theirs) on the Users screen…
    await loginAsAdmin(page);
    await page.getByRole('link', { name: 'Users' }).first().click();
    await page.getByPlaceholder('Search by name or email...').fill(granted.email);
    await page.getByRole('button', { name: `Edit ${granted.email}` }).click();
    const userDialog = page.getByRole('dialog');
    await expect(userDialog.getByRole('combobox', { name: 'Release channel' })).toHaveValue('Stable');
    await userDialog.getByRole('combobox', { name: 'Release channel' }).click();
    await page.getByRole('option', { name: 'Beta' }).click();
    await shot(page, 'user-form-en-1280');
    await userDialog.getByRole('button', { name: 'Update User' }).click();
    await expect(page.getByText('User updated successfully!')).toBeVisible();

    // …and ends the updates of another customer's license before the new releases, in Release access.
    await page.getByRole('link', { name: 'Licenses' }).first().click();
    await page
      .getByPlaceholder(/Search/)
      .first()
      .fill(endedLicense.license_key);
    await page.getByRole('button', { name: `Release access of ${endedLicense.license_key}` }).click();
    const access = page.getByRole('dialog', { name: `Release access of ${endedLicense.license_key}` });
    await access.getByLabel('Updates until').fill('2026-06-30');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'license-access-en-1280');
    await access.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Release access of ${endedLicense.license_key} saved`)).toBeVisible();
    await expect(page.getByTestId(`license-row-${endedLicense.license_key}`).getByTestId('license-updates-until')).toContainText('2026');
    // The dialog and the user form on a phone and in German.
    for (const [width, locale] of SCREENS.slice(1)) {
      await showAs(page, width, locale);
      const row = page.getByTestId(`license-row-${endedLicense.license_key}`);
      const action = locale === 'en' ? `Release access of ${endedLicense.license_key}` : `Versionszugang von ${endedLicense.license_key}`;
      // On a phone a row's actions are in its menu.
      if (width === 390) {
        await row.getByRole('button', { name: `${locale === 'en' ? 'Actions for' : 'Aktionen für'} ${endedLicense.license_key}` }).click();
        await page.getByRole('menuitem', { name: locale === 'en' ? 'Release access' : 'Versionszugang' }).click();
      } else await row.getByRole('button', { name: action }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      await shot(page, `license-access-${locale}-${width}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();

    // The admin offers the beta to half of the servers, then publishes it.
    await page.getByRole('link', { name: 'Versions' }).first().click();
    const betaRow = page.getByTestId(`version-row-${beta}`);
    await betaRow.getByRole('button', { name: `Rollout of version ${beta}` }).click();
    const rolloutDialog = page.getByRole('dialog', { name: `Rollout of ${beta}` });
    await expect(rolloutDialog.getByTestId('rollout-offered')).toHaveText('0 servers');
    await rolloutDialog.getByLabel('Share of servers').fill('50');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'rollout-en-1280');
    await rolloutDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Version ${beta} is offered to 50 % of servers`)).toBeVisible();
    await expect(betaRow.getByTestId('version-rollout')).toHaveText('Rollout 50 %');
    await betaRow.getByRole('button', { name: `Publish version ${beta}` }).click();
    await expect(betaRow.getByTestId('version-state')).toHaveText('Published');
    for (const [width, locale] of SCREENS.slice(1)) {
      await showAs(page, width, locale);
      if (width === 390) {
        await betaRow.getByRole('button', { name: `${locale === 'en' ? 'Actions for' : 'Aktionen für'} ${beta}` }).click();
        await page.getByRole('menuitem', { name: 'Rollout' }).click();
      } else await betaRow.getByRole('button', { name: `Rollout von Version ${beta}` }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      await shot(page, `rollout-${locale}-${width}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect.poll(() => fitsViewport(page)).toBe(true);
      await shot(page, `versions-${locale}-${width}`);
    }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.setViewportSize({ width: 1280, height: 800 });

    // A server of the granted customer runs the stable release: My Devices offers the beta as its update.
    const grantedKey = (
      await (await page.request.get('/api/licenses', { headers: { Authorization: `Bearer ${await clientToken(page, granted)}` } })).json()
    ).data[0].license_key as string;
    const edge = serverId(`edge-${run}`, true);
    const activation = await page.request.post('/api/license-server/activate', {
      data: {
        license_key: grantedKey,
        server_uid: edge,
        nonce: randomBytes(16).toString('hex'),
        hostname: 'edge-berlin-1',
        version: stable,
        os: 'linux',
        arch: 'x64',
      },
    });
    expect((await activation.json()).data.code).toBe('VALID');
    // The update API offers the beta to that server (in the rollout) and not to one outside it.
    const outside = serverId(`edge-${run}`, false);
    const other = await page.request.post('/api/license-server/activate', {
      data: { license_key: grantedKey, server_uid: outside, nonce: randomBytes(16).toString('hex'), version: stable },
    });
    expect((await other.json()).data.code).toBe('VALID');
    const upgrade = (server: string) =>
      page.request.get(`/api/releases/upgrade?current=${stable}&os=linux&arch=x64&channel=beta`, {
        headers: { Authorization: `License ${grantedKey}`, 'X-Server-Uid': server },
      });
    const offer = await upgrade(edge);
    expect(offer.status()).toBe(200);
    expect((await offer.json()).data).toMatchObject({ version: beta, channel: 'beta' });
    expect((await upgrade(outside)).status()).toBe(204);
    // The admin sees how far the rollout reached.
    await page.reload();
    await betaRow.getByRole('button', { name: `Rollout of version ${beta}` }).click();
    await expect(page.getByTestId('rollout-offered')).toHaveText('1 server');
    await expect(page.getByTestId('rollout-reporting')).toHaveText('0 servers');
    await page.keyboard.press('Escape');

    // The license's devices as the admin sees them: each server's version and platform.
    await page.getByRole('link', { name: 'Licenses' }).first().click();
    await page
      .getByPlaceholder(/Search/)
      .first()
      .fill(grantedKey);
    await page.getByRole('button', { name: `Devices of ${grantedKey}` }).click();
    const devicesDialog = page.getByRole('dialog', { name: `Devices of ${grantedKey}` });
    await expect(devicesDialog.getByTestId('license-devices-seats')).toHaveText('2 of 2 seats in use');
    const edgeRow = devicesDialog.getByTestId(`license-device-${edge}`);
    await expect(edgeRow.getByTestId('license-device-version')).toHaveText(stable);
    await expect(edgeRow.getByTestId('license-device-platform')).toHaveText('Linux · x64 (64-bit)');
    await expect(devicesDialog.getByTestId(`license-device-${outside}`).getByTestId('license-device-platform')).toHaveText('—');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'license-devices-en-1280');
    await page.keyboard.press('Escape');
    for (const [width, locale] of SCREENS.slice(1)) {
      await showAs(page, width, locale);
      const row = page.getByTestId(`license-row-${grantedKey}`);
      if (width === 390) {
        await row.getByRole('button', { name: `${locale === 'en' ? 'Actions for' : 'Aktionen für'} ${grantedKey}` }).click();
        await page.getByRole('menuitem', { name: locale === 'en' ? 'Devices' : 'Geräte' }).click();
      } else await row.getByRole('button', { name: `Geräte von ${grantedKey}` }).click();
      await expect(page.getByRole('dialog').getByTestId(`license-device-${edge}`)).toBeVisible();
      await expect.poll(() => fitsViewport(page)).toBe(true);
      await shot(page, `license-devices-${locale}-${width}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();

    // The customer granted beta sees it marked Beta, without a refusal, and downloads it.
    const grantedPage = await (await browser.newContext()).newPage();
    await loginAsClient(grantedPage, granted);
    const betaBlock = grantedPage.getByTestId(`version-${beta}`);
    await expect(betaBlock.getByTestId('version-channel')).toHaveText('Beta');
    await expect(betaBlock.getByTestId('version-access-note')).toHaveCount(0);
    const downloadEvent = grantedPage.waitForEvent('download');
    await betaBlock.getByRole('button', { name: /^Download Linux · x64/ }).click();
    expect((await downloadEvent).suggestedFilename()).toBe(betaName);
    await grantedPage.getByRole('dialog', { name: 'Download Started' }).getByRole('button', { name: 'OK' }).click();
    const deviceCard = grantedPage.getByTestId(`device-${edge}`);
    await expect(deviceCard.getByTestId('device-update')).toHaveText(`Update available: ${beta}`);
    await expect(deviceCard.getByTestId('device-platform')).toHaveText('Linux · x64 (64-bit)');
    // Named after its host until its owner renames it; the name stays through the server's heartbeats.
    await expect(deviceCard.getByRole('heading', { name: 'edge-berlin-1' })).toBeVisible();
    await deviceCard.getByRole('button', { name: 'Rename edge-berlin-1' }).click();
    const renameDialog = grantedPage.getByRole('dialog', { name: 'Rename device' });
    await renameDialog.getByRole('textbox', { name: 'Name' }).fill('Berlin studio');
    await renameDialog.getByRole('button', { name: 'Save name' }).click();
    await expect(grantedPage.getByText('Device renamed')).toBeVisible();
    await expect(deviceCard.getByRole('heading', { name: 'Berlin studio' })).toBeVisible();
    const beat = await page.request.post('/api/license-server/validate', {
      data: { license_key: grantedKey, server_uid: edge, nonce: randomBytes(16).toString('hex'), hostname: 'edge-berlin-2' },
    });
    expect((await beat.json()).data.code).toBe('VALID');
    await grantedPage.reload();
    await expect(deviceCard.getByRole('heading', { name: 'Berlin studio' })).toBeVisible();
    for (const [width, locale] of SCREENS) {
      await showAs(grantedPage, width, locale);
      await expect(grantedPage.getByTestId('device-update')).toHaveText(
        `${locale === 'en' ? 'Update available' : 'Update verfügbar'}: ${beta}`,
      );
      await expect.poll(() => fitsViewport(grantedPage)).toBe(true);
      await grantedPage.getByTestId('device-update').scrollIntoViewIfNeeded();
      await shot(grantedPage, `devices-${locale}-${width}`);
    }

    // The customer without beta sees why, cannot press Download, and the server refuses the file too.
    const withoutPage = await (await browser.newContext()).newPage();
    await loginAsClient(withoutPage, without);
    const refusedBlock = withoutPage.getByTestId(`version-${beta}`);
    await expect(refusedBlock.getByTestId('version-access-note')).toHaveText(
      'This Beta release is for customers whose license includes the Beta channel. Ask the vendor for access.',
    );
    await expect(refusedBlock.getByRole('button', { name: /^Download Linux · x64/ })).toBeDisabled();
    await expect(refusedBlock.getByTestId('linux-install')).toHaveCount(0);
    await expect(withoutPage.getByTestId(`version-${stable}`).getByRole('button', { name: /^Download Linux · x64/ })).toBeEnabled();
    const refused = await withoutPage.request.get(`/api/download/${betaFile.id}`, {
      headers: { Authorization: `Bearer ${await clientToken(withoutPage, without)}` },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).code).toBe('CHANNEL_NOT_GRANTED');
    expect(await seriousAxeViolations(withoutPage)).toEqual([]);
    await refusedBlock.scrollIntoViewIfNeeded();
    await shot(withoutPage, 'refused-en-1280');

    // The customer whose updates ended before the newest stable release sees "Renew to get" on it.
    const endedPage = await (await browser.newContext()).newPage();
    await loginAsClient(endedPage, ended);
    const renewBlock = endedPage.getByTestId(`version-${stable}`);
    await expect(renewBlock.getByTestId('version-renew')).toHaveText('Renew to get');
    await expect(renewBlock.getByTestId('version-access-note')).toHaveText(
      'Your licenses’ updates ended before this release was published: renew a license to run it.',
    );
    await expect(endedPage.getByTestId(`license-${endedLicense.license_key}`).getByTestId('license-updates-until')).toBeVisible();
    expect(await seriousAxeViolations(endedPage)).toEqual([]);
    await renewBlock.scrollIntoViewIfNeeded();
    await shot(endedPage, 'renew-en-1280');

    // On a phone and in German, the same notes, from the catalog, fitting the screen.
    for (const [who, screen, name] of [
      [withoutPage, refusedBlock, 'refused'],
      [endedPage, renewBlock, 'renew'],
    ] as const) {
      await who.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => fitsViewport(who)).toBe(true);
      await screen.scrollIntoViewIfNeeded();
      await shot(who, `${name}-en-390`);
      await who.evaluate(() => localStorage.setItem('locale', 'de'));
      await who.reload();
      await expect(screen.getByTestId('version-access-note')).toContainText(name === 'refused' ? 'Kanal Beta' : 'Verlängern Sie');
      await expect.poll(() => fitsViewport(who)).toBe(true);
      await shot(who, `${name}-de-390`);
      await who.setViewportSize({ width: 1280, height: 800 });
      await shot(who, `${name}-de-1280`);
    }
    await expect(renewBlock.getByTestId('version-renew')).toHaveText('Mit Verlängerung');
  });
});
