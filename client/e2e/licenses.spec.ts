import { expect, Locator, Page, test } from '@playwright/test';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVerifiedClient, ensureRelease, fitsViewport, loginAsAdmin, loginAsClient, seriousAxeViolations } from './support/portal';

const base = () => process.env.E2E_BASE_URL!;
const LICENSE_HEADER = '-----BEGIN STREAMHUB LICENSE-----';

/** The payload a license.key file signs: the base64 lines between the armor lines, as JSON. */
function licenseFilePayload(text: string): { license_key: string; product: string; max_activations: number } {
  const lines = text.split('\n');
  const end = lines.indexOf('-----END STREAMHUB LICENSE-----');
  return JSON.parse(Buffer.from(lines.slice(1, end).join(''), 'base64').toString('utf8'));
}

/** A child process's output so far, and a way to wait for a line in it. */
function watch(child: ChildProcess) {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    output: () => output,
    exited,
    waitFor: (pattern: RegExp, timeout = 20_000) =>
      expect.poll(() => output, { timeout, message: `script output:\n${output}` }).toMatch(pattern),
  };
}

/**
 * Chooses a product: whatever the server offers (the published versions, or the app's current version while
 * there are none), never a fixed one. A single choice is already selected.
 */
async function chooseProduct(page: Page, dialog: Locator) {
  const select = dialog.getByRole('combobox', { name: 'Product' });
  await expect(select).toBeVisible();
  if (!(await select.inputValue())) {
    await select.click();
    // Only the Product list's options: the language selector's options are on the page too.
    await page
      .getByRole('option', { name: /^StreamHub v\S+$/ })
      .first()
      .click();
  }
  await expect(select).toHaveValue(/^StreamHub v\S+$/);
  return select.inputValue();
}

async function takeTrial(page: Page) {
  await page.getByRole('button', { name: 'Request Test License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Test License' });
  await chooseProduct(page, dialog);
  await expect(dialog.getByTestId('test-license-info')).toHaveText('A test license is valid for 7 days on 1 device.');
  await dialog.getByRole('button', { name: 'Request Test License' }).click();
  const done = page.getByRole('dialog', { name: 'Test License Created' });
  await expect(done).toBeVisible();
  const key = (await done.getByTestId('success-details').locator('code').textContent())!.trim();
  await done.getByRole('button', { name: 'OK' }).click();
  await expect(done).toBeHidden();
  return key;
}

test.describe('Client licenses and devices', () => {
  let workDir: string;
  let script: ChildProcess | null = null;

  test.beforeEach(async ({ page }) => {
    await ensureRelease(page);
    workDir = mkdtempSync(join(tmpdir(), 'license-test-script-'));
  });
  test.afterEach(() => {
    if (script && script.exitCode === null) script.kill();
    script = null;
    rmSync(workDir, { recursive: true, force: true });
  });

  test('takes a trial, buys with a live Total, downloads license.key, activates a server with the test script, and sees a revocation reported', async ({
    page,
    context,
    browser,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginAsClient(page, await createVerifiedClient(page));
    await expect(page.getByText('No licenses yet')).toBeVisible();
    await expect(page.getByText('No devices activated')).toBeVisible();
    await expect(page.getByTestId('price-per-device')).toHaveText('$10.00 per device per month');

    // Trial: product from the server, duration and devices from the test-license settings.
    const trialKey = await takeTrial(page);
    expect(trialKey).toMatch(/^SH-/);
    const trialCard = page.getByTestId(`license-${trialKey}`);
    await expect(trialCard.getByText('Trial License')).toBeVisible();
    await expect(trialCard.getByText('Active')).toBeVisible();
    await expect(trialCard.getByText('Expires soon!')).toBeVisible();
    await expect(trialCard.getByText('Ready to activate')).toBeVisible();
    await expect(trialCard.getByTestId('license-devices')).toHaveText('0/1');

    // Purchase: the Total follows every keystroke.
    await page.getByRole('button', { name: 'Purchase License' }).click();
    const purchase = page.getByRole('dialog', { name: 'Purchase License' });
    const product = await chooseProduct(page, purchase);
    const total = purchase.getByTestId('purchase-total');
    await expect(total).toHaveText('$10.00');
    const devices = purchase.getByRole('textbox', { name: 'Number of Devices' });
    const months = purchase.getByRole('textbox', { name: 'Duration (Months)' });
    await devices.fill('');
    await devices.pressSequentially('2');
    await expect(total).toHaveText('$20.00');
    await devices.pressSequentially('5');
    await expect(total).toHaveText('$250.00');
    await months.fill('');
    await months.pressSequentially('13');
    await expect(purchase.getByText('Duration must be from 1 to 12 months')).toBeVisible();
    await expect(total).toHaveText('—');
    await months.press('Backspace');
    await expect(total).toHaveText('$250.00');
    await devices.fill('2');
    await expect(total).toHaveText('$20.00');
    await months.fill('3');
    await expect(total).toHaveText('$60.00');
    await expect(purchase.getByText('2 devices × 3 months × $10.00')).toBeVisible();
    await purchase.getByRole('button', { name: 'Purchase' }).click();

    const bought = page.getByRole('dialog', { name: 'License Purchased Successfully!' });
    await expect(bought).toBeVisible();
    const details = bought.getByTestId('success-details');
    await expect(details).toContainText(`Product${product}`);
    await expect(details).toContainText('Devices2');
    await expect(details).toContainText('Duration3 months');
    await expect(details).toContainText('Total$60.00');
    const paidKey = (await details.locator('code').textContent())!.trim();
    await bought.getByRole('button', { name: 'OK' }).click();
    const paidCard = page.getByTestId(`license-${paidKey}`);
    await expect(paidCard.getByTestId('license-devices')).toHaveText('0/2');
    await expect(paidCard.getByText('Trial License')).toHaveCount(0);

    // Download .key saves license.key: the signed file for this key.
    const downloading = page.waitForEvent('download');
    await paidCard.getByRole('button', { name: 'Download .key' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('license.key');
    const file = readFileSync((await download.path())!, 'utf8');
    expect(file.startsWith(`${LICENSE_HEADER}\n`)).toBe(true);
    expect(licenseFilePayload(file)).toMatchObject({ license_key: paidKey, product, max_activations: 2 });
    const downloaded = page.getByRole('dialog', { name: 'License Downloaded' });
    await expect(downloaded).toBeVisible();
    await downloaded.getByRole('button', { name: 'OK' }).click();

    // The test-script command names this portal and the newest active key; Copy Command copies exactly it.
    const command = page.getByTestId('test-script-command');
    await expect(command).toHaveText(
      `curl -fsSL ${base()}/api/license-server/test-script.tar.gz | tar -xz && cd streamhub-license-test && node streamhub-license-test.mjs --url ${base()} --key ${paidKey}`,
    );
    await page.getByRole('region', { name: 'Test a license on your server' }).getByRole('button', { name: 'Copy Command' }).click();
    const copied = page.getByRole('dialog', { name: 'Command Copied' });
    await expect(copied).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await command.textContent());
    await copied.getByRole('button', { name: 'OK' }).click();

    // Run the script as a customer would: archive from the running portal, unpacked, started with key and URL.
    const archive = await page.request.get('/api/license-server/test-script.tar.gz');
    expect(archive.status()).toBe(200);
    writeFileSync(join(workDir, 'test-script.tar.gz'), await archive.body());
    execFileSync('tar', ['-xzf', 'test-script.tar.gz'], { cwd: workDir });
    const scriptDir = join(workDir, 'streamhub-license-test');
    script = spawn(
      process.execPath,
      ['streamhub-license-test.mjs', '--url', base(), '--key', paidKey, '--interval', '1', '--name', 'E2E Edge Server'],
      { cwd: scriptDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const run = watch(script);
    await run.waitFor(/activate\s+VALID\s+License activated on this server/);
    await run.waitFor(/validate\s+VALID/);
    const serverUid = JSON.parse(readFileSync(join(scriptDir, 'streamhub-device.json'), 'utf8')).server_uid as string;

    await page.reload();
    const device = page.getByTestId(`device-${serverUid}`);
    await expect(device.getByRole('heading', { name: 'E2E Edge Server' })).toBeVisible();
    await expect(device.getByText('Currently active')).toBeVisible();
    await expect(device.getByText(paidKey)).toBeVisible();
    await expect(device.getByTestId('device-server-id')).toHaveText(serverUid);
    await expect(page.getByTestId(`license-${paidKey}`).getByTestId('license-devices')).toHaveText('1/2');

    // An admin, in a browser of their own, revokes the license on License Management; the script's next validation reports it and stops.
    const adminContext = await browser.newContext();
    try {
      const admin = await adminContext.newPage();
      await loginAsAdmin(admin);
      await admin.goto('/secret-admin/licenses');
      await expect(admin.getByRole('heading', { name: 'License Management' })).toBeVisible();
      await admin.getByPlaceholder('Search licenses...').fill(paidKey);
      await expect(admin.getByTestId('licenses-table').locator('tbody tr')).toHaveCount(1);
      const licenseRow = admin.getByTestId(`license-row-${paidKey}`);
      await expect(licenseRow.getByTestId('license-activations')).toHaveText('1 / 2');
      await licenseRow.getByRole('button', { name: `Revoke license ${paidKey}` }).click();
      const confirm = admin.getByRole('dialog', { name: 'Revoke license' });
      await expect(confirm).toContainText(paidKey);
      await expect(confirm).toContainText('Deactivate all installations using it (1 active now)');
      await confirm.getByRole('button', { name: 'Revoke License' }).click();
      await expect(admin.getByText('License revoked successfully')).toBeVisible();
      await expect(licenseRow.getByTestId('license-status')).toHaveText('Revoked');
    } finally {
      await adminContext.close();
    }
    await run.waitFor(/validate\s+REVOKED\s+License has been revoked/);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('The portal says REVOKED');

    await page.reload();
    await expect(page.getByTestId(`license-${paidKey}`).getByText('Revoked')).toBeVisible();
    await expect(page.getByTestId(`license-${paidKey}`).getByText('Ready to activate')).toHaveCount(0);
  });

  test('a customer deactivates their own device to free its seat', async ({ page }) => {
    await loginAsClient(page, await createVerifiedClient(page));
    const key = await takeTrial(page);
    const serverUid = `sh-e2e-${Date.now()}`;
    const activation = await page.request.post('/api/license-server/activate', {
      data: {
        license_key: key,
        server_uid: serverUid,
        nonce: 'e2e-nonce-0123456789abcdef',
        hostname: 'ingest-1.example.net',
        version: '4.3.0',
      },
    });
    expect((await activation.json()).data.code).toBe('VALID');
    await page.reload();
    const device = page.getByTestId(`device-${serverUid}`);
    // Named after the host its activation reported, with the version it runs.
    await expect(device.getByRole('heading', { name: 'ingest-1.example.net' })).toBeVisible();
    await expect(device.getByTestId('device-version')).toHaveText('4.3.0');
    await expect(page.getByTestId(`license-${key}`).getByTestId('license-devices')).toHaveText('1/1');
    await expect(page.getByTestId(`license-${key}`).getByText('Ready to activate')).toHaveCount(0);

    await device.getByRole('button', { name: 'Deactivate ingest-1.example.net' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate device?' });
    await expect(confirm).toContainText(serverUid);
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('Device deactivated')).toBeVisible();
    await expect(device.getByText('Inactive')).toBeVisible();
    await expect(device.getByRole('button', { name: /Deactivate/ })).toHaveCount(0);
    await expect(page.getByTestId(`license-${key}`).getByTestId('license-devices')).toHaveText('0/1');
    await expect(page.getByTestId(`license-${key}`).getByText('Ready to activate')).toBeVisible();
  });

  test('shows the used trial before the click, with the reason the server would give', async ({ page }) => {
    await loginAsClient(page, await createVerifiedClient(page));
    const tile = page.getByTestId('test-license-tile');
    await expect(tile.getByRole('button', { name: 'Request Test License' })).toBeEnabled();
    await takeTrial(page);
    await expect(tile.getByRole('button', { name: 'Request Test License' })).toBeDisabled();
    await expect(page.getByTestId('test-license-tile-refusal')).toHaveText('You have used your test license: the limit is 1 per account.');
    await page.reload();
    await expect(tile.getByRole('button', { name: 'Request Test License' })).toBeDisabled();
    await page.getByTestId('language-select').first().selectOption('de');
    await expect(page.getByTestId('test-license-tile-refusal')).toHaveText(
      'Sie haben Ihre Testlizenz bereits genutzt: Das Limit liegt bei 1 pro Konto.',
    );
    await expect(page.getByTestId('purchase-tile').getByRole('button')).toBeEnabled();
  });

  test('the dashboard with licenses and its open modals has no serious accessibility violations and fits 390 px', async ({ page }) => {
    await loginAsClient(page, await createVerifiedClient(page));
    // The test-license dialog first: once the trial is taken, its button is off.
    await page.getByRole('button', { name: 'Request Test License' }).click();
    await expect(page.getByRole('dialog', { name: 'Request Test License' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('dialog', { name: 'Request Test License' }).getByRole('button', { name: 'Cancel' }).click();
    const key = await takeTrial(page);
    await page.request.post('/api/license-server/activate', {
      data: { license_key: key, server_uid: `sh-axe-${Date.now()}`, nonce: 'axe-nonce-0123456789abcdef', device_name: 'Studio A' },
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Studio A' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Purchase License' }).click();
    await expect(page.getByRole('dialog', { name: 'Purchase License' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('dialog', { name: 'Purchase License' }).getByRole('button', { name: 'Cancel' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId(`license-${key}`)).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
    await page.getByRole('button', { name: 'Purchase License' }).click();
    await expect(page.getByRole('dialog', { name: 'Purchase License' })).toBeVisible();
    await expect.poll(() => fitsViewport(page)).toBe(true);
  });
});
