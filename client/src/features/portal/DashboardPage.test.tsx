import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceDto, LicenseDto, LicenseOptionsDto, PublicSettingsDto } from '../../api/generated/model';
import { TOKEN_KEY } from '../../api/http-client';
import { USER_KEY } from '../../lib/auth/session';
import { jsonResponse, renderWithProviders } from '../../test/render';
import DashboardPage from './DashboardPage';
import { PurchaseLicenseModal } from './PurchaseLicenseModal';

const USER = { id: 7, email: 'casey@portal.test', first_name: 'Casey', last_name: 'Client', role: 'client', user_type: 'client' };
const DAY = 86_400_000;

const settings = (change: (s: PublicSettingsDto) => void = () => undefined): PublicSettingsDto => {
  const value: PublicSettingsDto = {
    test_license: {
      enabled: true,
      duration_days: 7,
      max_devices: 1,
      description: 'Try it for a week.',
      description_de: 'Eine Woche testen.',
    },
    pricing: {
      price_per_device: 10,
      currency: 'USD',
      min_duration_months: 1,
      max_duration_months: 12,
      max_devices: 100,
      description: 'Per device, per month.',
      description_de: 'Pro Gerät und Monat.',
    },
    app_info: { name: 'StreamHub', version: '1.0.0', description: '', support_email: 's@x.io', website: 'https://x.io' },
    features: {
      test_license_enabled: true,
      purchase_license_enabled: true,
      multiple_devices_supported: true,
      license_transfer_enabled: true,
    },
  };
  change(value);
  return value;
};

const license = (over: Partial<LicenseDto> = {}): LicenseDto => ({
  id: 1,
  product_name: 'StreamHub v1.0.0',
  license_key: 'SH-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
  status: 'active',
  is_trial: true,
  expires_at: new Date(Date.now() + 3 * DAY).toISOString(),
  current_activations: 0,
  max_activations: 1,
  channel: 'stable',
  updates_until: null,
  created_at: new Date().toISOString(),
  ...over,
});

const device = (over: Partial<DeviceDto> = {}): DeviceDto => ({
  id: 11,
  device_name: null,
  custom_name: null,
  license_id: 1,
  license_key: 'SH-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
  product_name: 'StreamHub v1.0.0',
  status: 'active',
  is_active: true,
  activated_at: new Date().toISOString(),
  last_activity_at: null,
  deactivated_at: null,
  server_uid: 'sh-device-1',
  hostname: null,
  product: null,
  version: null,
  os: null,
  arch: null,
  ...over,
});

const page = (data: unknown[]) => ({ success: true, data, meta: { total: data.length, page: 1, limit: 20, pages: 1 } });

type Route = (url: string, init: RequestInit) => Response | undefined;

interface ApiState {
  settings?: PublicSettingsDto;
  licenses?: LicenseDto[];
  devices?: DeviceDto[];
  versions?: Array<{ version: string; is_latest: 0 | 1 }>;
  options?: LicenseOptionsDto;
}

const NO_RELEASE = 'No release is available yet: a license can be requested once the first version is published.';

function stubApi(state: ApiState, extra?: Route) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url === '/api/me') return jsonResponse(200, { success: true, data: USER });
    if (url === '/api/settings') return jsonResponse(200, { success: true, data: state.settings ?? settings() });
    if (url.startsWith('/api/licenses?')) return jsonResponse(200, page(state.licenses ?? []));
    if (url.startsWith('/api/client/versions?')) {
      // Versions as the server sends them (Available Downloads reads their files).
      const data = (state.versions ?? []).map((v, index) => ({
        id: index + 1,
        is_stable: 1,
        channel: 'stable',
        state: 'published',
        release_date: '2025-06-01',
        changelog: null,
        has_files: false,
        distribution_files: [],
        access: { covered: false, renew: false, refusal: null },
        ...v,
      }));
      return jsonResponse(200, { success: true, data, meta: { total: data.length, page: 1, limit: 10, pages: 1 } });
    }
    if (url === '/api/licenses/products') {
      // The server's product names: one per version, latest first; none before the first version.
      const appInfo = (state.settings ?? settings()).app_info;
      const versions = [...(state.versions ?? [])].sort((a, b) => b.is_latest - a.is_latest).map((v) => v.version);
      return jsonResponse(200, { success: true, data: versions.map((version) => `${appInfo.name} v${version}`) });
    }
    if (url === '/api/licenses/options') {
      const open = { available: true, reason: null };
      const closed = { available: false, reason: NO_RELEASE };
      const data = state.options ?? (state.versions?.length ? { trial: open, purchase: open } : { trial: closed, purchase: closed });
      return jsonResponse(200, { success: true, data });
    }
    if (url.startsWith('/api/devices?')) return jsonResponse(200, page(state.devices ?? []));
    return jsonResponse(404, { message: `no stub for ${url}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderDashboard(signedIn = true) {
  if (signedIn) {
    localStorage.setItem(TOKEN_KEY, 'token');
    localStorage.setItem(USER_KEY, JSON.stringify(USER));
  }
  const router = createMemoryRouter([{ path: '*', element: <DashboardPage /> }], { initialEntries: ['/dashboard'] });
  return renderWithProviders(<RouterProvider router={router} />);
}

const bodyOf = (fetchMock: ReturnType<typeof stubApi>, url: string) =>
  JSON.parse(fetchMock.mock.calls.find(([called, init]) => called === url && init?.method === 'POST')![1]!.body as string);

describe('client dashboard', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:license'), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it("shows 'Access Denied' with Go to Login when there is no session", async () => {
    stubApi({});
    renderDashboard(false);
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(screen.getByText('Please log in to access your dashboard.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('/login');
  });

  it('shows the Get License tiles with the server price, every license field and badge, and the empty device list', async () => {
    stubApi({ licenses: [license()] });
    renderDashboard();
    expect(await screen.findByText('$10.00 per device per month')).toBeTruthy();
    expect(screen.getByText('7 days · 1 device')).toBeTruthy();
    const card = await screen.findByTestId('license-SH-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE');
    for (const text of [
      'StreamHub v1.0.0',
      'Active',
      'Trial License',
      'Expires soon!',
      'Ready to activate',
      '0/1',
      'Copy Key',
      'Download .key',
    ])
      expect(within(card).getByText(text)).toBeTruthy();
    expect(await screen.findByText('No devices activated')).toBeTruthy();
    expect(screen.getByTestId('test-script-command').textContent).toContain('--key SH-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE');
  });

  it('hides the Test License tile when test licenses are disabled', async () => {
    stubApi({ settings: settings((s) => (s.test_license.enabled = false)) });
    renderDashboard();
    expect(await screen.findByTestId('purchase-tile')).toBeTruthy();
    expect(screen.queryByTestId('test-license-tile')).toBeNull();
  });

  it('updates the Total while typing, refuses out-of-range values, and buys with only the chosen values', async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi({ versions: [{ version: '1.0.0', is_latest: 1 }] }, (url, init) => {
      if (url === '/api/licenses' && init.method === 'POST') {
        return jsonResponse(201, {
          success: true,
          message: 'License Purchased Successfully!',
          data: {
            license: license({ is_trial: false, max_activations: 3, license_key: 'SH-PAID1-PAID2-PAID3-PAID4-PAID5' }),
            order: { id: 5, devices: 3, months: 12, amount: 360, currency: 'USD', unit_price: 10 },
          },
        });
      }
    });
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Purchase License' }));
    const dialog = await screen.findByRole('dialog');
    const total = within(dialog).getByTestId('purchase-total');
    expect(total.textContent).toBe('$10.00');
    const devices = within(dialog).getByRole('textbox', { name: /Number of Devices/ });
    const months = within(dialog).getByRole('textbox', { name: /Duration \(Months\)/ });
    await user.clear(devices);
    await user.type(devices, '3');
    expect(total.textContent).toBe('$30.00');
    await user.clear(months);
    await user.type(months, '12');
    expect(total.textContent).toBe('$360.00');
    await user.type(months, '0');
    expect(await within(dialog).findByText('Duration must be from 1 to 12 months')).toBeTruthy();
    expect(total.textContent).toBe('—');
    await user.clear(months);
    await user.type(months, '12');

    // The only product is chosen already.
    expect((within(dialog).getByRole('combobox', { name: /Product/ }) as HTMLInputElement).value).toBe('StreamHub v1.0.0');
    await user.click(within(dialog).getByRole('button', { name: 'Purchase' }));

    expect(await screen.findByText('License Purchased Successfully!')).toBeTruthy();
    const details = screen.getByTestId('success-details');
    for (const text of ['StreamHub v1.0.0', '3', '12 months', '$360.00']) expect(within(details).getByText(text)).toBeTruthy();
    expect(bodyOf(fetchMock, '/api/licenses')).toEqual({
      product_name: 'StreamHub v1.0.0',
      license_type: 'paid',
      max_activations: 3,
      duration_months: 12,
    });
  });

  it('requires a product when there is more than one', async () => {
    const user = userEvent.setup();
    stubApi({});
    renderWithProviders(
      <PurchaseLicenseModal
        onClose={() => undefined}
        products={{ choices: ['StreamHub v2.0.0', 'StreamHub v1.0.0'], loading: false, error: null, retry: () => undefined }}
        pricing={settings().pricing}
        onPurchased={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Purchase' }));
    expect(await within(dialog).findByText('Please select a product')).toBeTruthy();
    await user.click(within(dialog).getByRole('combobox', { name: /Product/ }));
    await user.click(await screen.findByRole('option', { name: 'StreamHub v2.0.0', hidden: true }));
    await waitFor(() => expect(within(dialog).queryByText('Please select a product')).toBeNull());
  });

  it('offers the published versions as products, latest first', async () => {
    const user = userEvent.setup();
    stubApi({
      versions: [
        { version: '1.0.0', is_latest: 0 },
        { version: '2.1.0', is_latest: 1 },
      ],
    });
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Request Test License' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('combobox', { name: /Product/ }));
    const options = (await screen.findAllByRole('option', { hidden: true })).filter((option) =>
      option.textContent?.startsWith('StreamHub'),
    );
    expect(options.map((option) => option.textContent)).toEqual(['StreamHub v2.1.0', 'StreamHub v1.0.0']);
  });

  it('shows Available Downloads above the test-script command, and reads the product choices only when a license dialog opens', async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi({ versions: [{ version: '2.1.0', is_latest: 1 }] });
    renderDashboard();
    const block = await screen.findByTestId('version-2.1.0');
    expect(within(block).getByRole('heading', { name: 'Version 2.1.0 (Latest)' })).toBeTruthy();
    expect(within(block).getByText('No downloads available yet')).toBeTruthy();
    const downloads = screen.getByTestId('available-downloads');
    expect(downloads.compareDocumentPosition(screen.getByTestId('test-script-command')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/client/versions?page=1&limit=10')).toHaveLength(1);
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/licenses/products')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Request Test License' }));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === '/api/licenses/products')).toHaveLength(1));
  });

  it('shows why the products could not be loaded, with Retry', async () => {
    const user = userEvent.setup();
    stubApi({ versions: [{ version: '1.0.0', is_latest: 1 }] }, (url) =>
      url === '/api/licenses/products' ? jsonResponse(500, { message: 'Database unavailable' }) : undefined,
    );
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Purchase License' }));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Failed to load dashboard data: Database unavailable');
    expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('counts an empty (non-numeric) device field as 1', async () => {
    const user = userEvent.setup();
    stubApi({ versions: [{ version: '1.0.0', is_latest: 1 }] });
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Purchase License' }));
    const dialog = await screen.findByRole('dialog');
    await user.clear(within(dialog).getByRole('textbox', { name: /Number of Devices/ }));
    expect(within(dialog).getByTestId('purchase-total').textContent).toBe('$10.00');
  });

  it('before the first release, shows both tiles off with the reason, in the chosen language', async () => {
    stubApi({ versions: [] });
    renderDashboard();
    expect(await screen.findByTestId('test-license-tile-refusal')).toHaveProperty('textContent', NO_RELEASE);
    expect(screen.getByTestId('purchase-tile-refusal').textContent).toBe(NO_RELEASE);
    expect((screen.getByRole('button', { name: 'Request Test License' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Purchase License' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a used test license as used before the click, with the reason', async () => {
    const limit = 'You have reached the limit of 1 test license per account.';
    stubApi({
      versions: [{ version: '1.0.0', is_latest: 1 }],
      options: { trial: { available: false, reason: limit }, purchase: { available: true, reason: null } },
    });
    renderDashboard();
    expect((await screen.findByTestId('test-license-tile-refusal')).textContent).toBe(
      'You have used your test license: the limit is 1 per account.',
    );
    expect((screen.getByRole('button', { name: 'Request Test License' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Purchase License' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the server refusal of a trial (a race the tile could not know of), and Test License Created on success', async () => {
    const user = userEvent.setup();
    let refuse = true;
    stubApi({ versions: [{ version: '1.0.0', is_latest: 1 }] }, (url, init) => {
      if (url !== '/api/licenses' || init.method !== 'POST') return undefined;
      if (refuse) return jsonResponse(409, { statusCode: 409, message: 'You have reached the limit of 1 test license per account.' });
      return jsonResponse(201, { success: true, message: 'Test License Created', data: { license: license(), order: null } });
    });
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Request Test License' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('test-license-info').textContent).toBe('A test license is valid for 7 days on 1 device.');
    await user.click(within(dialog).getByRole('button', { name: 'Request Test License' }));
    expect(
      await within(dialog).findByText('Failed to generate test license: You have reached the limit of 1 test license per account.'),
    ).toBeTruthy();
    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Request Test License' }));
    expect(await screen.findByText('Test License Created')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByText('Test License Created')).toBeNull());
  });

  it('downloads license.key through the API and says License Downloaded; a failure shows the real error', async () => {
    const user = userEvent.setup();
    let fail = false;
    const fetchMock = stubApi({ licenses: [license()] }, (url) => {
      if (url !== '/api/licenses/1/file') return undefined;
      if (fail) return jsonResponse(409, { message: 'This license has been revoked; there is no license file for it.' });
      return new Response('-----BEGIN STREAMHUB LICENSE-----\n', { status: 200, headers: { 'Content-Type': 'text/plain' } });
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('license.key');
    });
    renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'Download .key' }));
    expect(await screen.findByText('License Downloaded')).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0][0] as Blob;
    const text = await new Promise<string>((done) => {
      const reader = new FileReader();
      reader.onload = () => done(reader.result as string);
      reader.readAsText(blob);
    });
    expect(text).toBe('-----BEGIN STREAMHUB LICENSE-----\n');
    expect(new Headers(fetchMock.mock.calls.find(([url]) => url === '/api/licenses/1/file')![1]!.headers).get('Authorization')).toBe(
      'Bearer token',
    );
    await user.click(screen.getByRole('button', { name: 'OK' }));
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Download .key' }));
    expect((await screen.findByTestId('dashboard-error')).textContent).toContain(
      'Failed to download license file: This license has been revoked; there is no license file for it.',
    );
  });

  it("lists devices by name, else host, else 'Unknown Device', with 'Currently active', and deactivates one after confirmation", async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi(
      {
        devices: [
          device(),
          device({
            id: 12,
            device_name: 'Edge 2',
            hostname: 'edge-2.example.net',
            server_uid: 'sh-2',
            is_active: false,
            status: 'inactive',
          }),
          device({ id: 13, hostname: 'ingest-1.example.net', server_uid: 'sh-3', version: '4.3.0' }),
        ],
      },
      (url, init) =>
        url === '/api/devices/11/deactivate' && init.method === 'POST'
          ? jsonResponse(200, { success: true, message: 'Device deactivated', data: device({ deactivated_at: new Date().toISOString() }) })
          : undefined,
    );
    renderDashboard();
    const first = await screen.findByTestId('device-sh-device-1');
    expect(within(first).getByText('Unknown Device')).toBeTruthy();
    expect(within(first).getByText('Currently active')).toBeTruthy();
    expect(within(first).getByText('Never')).toBeTruthy();
    const second = screen.getByTestId('device-sh-2');
    expect(within(second).getByText('Edge 2')).toBeTruthy();
    expect(within(second).getByText('Inactive')).toBeTruthy();
    expect(within(second).queryByText('Currently active')).toBeNull();
    expect(within(second).queryByText('edge-2.example.net')).toBeNull();
    expect(within(second).queryByTestId('device-version')).toBeNull();
    // Without a name of its own a device is called after the host it reported, with the version it runs.
    const third = screen.getByTestId('device-sh-3');
    expect(within(third).getByRole('heading', { name: 'ingest-1.example.net' })).toBeTruthy();
    expect(within(third).getByTestId('device-version').textContent).toBe('4.3.0');

    await user.click(within(first).getByRole('button', { name: 'Deactivate Unknown Device' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/sh-device-1/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Device deactivated')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/devices/11/deactivate' && init?.method === 'POST')).toBe(true);
  });
});
