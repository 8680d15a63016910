import { DeviceSyncService } from '../src/modules/devices/device-sync.service';
import { LicenseSyncService, SyncedLicense } from '../src/modules/licenses/license-sync.service';
import { startTestApp, TestApp } from './support/test-app';

/**
 * A license server takes a portal's full sync 500 licenses and 500 devices a call. On SQLite every write runs on the
 * event loop, so such a batch written in one go would keep every other request waiting until it is through: each
 * must give other work turns while it writes. Told without clocks: how often a task queued on the event loop ran
 * while the batch was written.
 */
describe(`a pushed batch gives other requests turns (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  /** Runs `work`, counting the turns a task waiting on the event loop got meanwhile. */
  async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
    let turns = 0;
    let running = true;
    const turn = () => {
      if (!running) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    try {
      return { result: await work(), turns };
    } finally {
      running = false;
    }
  }

  it('writes 500 pushed licenses and 500 pushed devices with other work run at least every 50', async () => {
    const expires = new Date(Date.now() + 30 * 86_400_000);
    const licenses: SyncedLicense[] = Array.from({ length: 500 }, (_, i) => ({
      license_key: `SH-TURNS-${String(i).padStart(5, '0')}-M9XJ4-TA1VC-8PZRN`,
      product_name: 'StreamHub Pro',
      user_email: `turns${i}@portal.test`,
      status: 'active',
      expires_at: expires,
      max_activations: 2,
      is_trial: false,
    }));
    const pushed = await turnsDuring(() => t.app.get(LicenseSyncService).upsertFromPortal(licenses));
    expect(pushed.result).toMatchObject({ created: 500, updated: 0 });
    expect(pushed.turns).toBeGreaterThanOrEqual(500 / 50 - 1);

    const now = new Date();
    const devices = licenses.map(({ license_key }, i) => ({
      license_key,
      server_uid: `turns-server-${i}`,
      device_name: `turns-${i}`,
      hostname: `turns-${i}.example.net`,
      product: 'StreamHub',
      version: '2.1.0',
      status: 'active' as const,
      activated_at: now,
      last_activity_at: now,
    }));
    const adopted = await turnsDuring(() => t.app.get(DeviceSyncService).adoptFromPortal(devices));
    expect(adopted.result).toEqual({ created: 500, unchanged: 0, refused: 0 });
    expect(adopted.turns).toBeGreaterThanOrEqual(500 / 50 - 1);
  });
});
