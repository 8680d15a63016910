import { loadConfig } from '../../config/app-config';
import { batchesBySize } from './sync-push.service';
import { retryAt } from './sync-queue.service';

describe('pushing to the license server', () => {
  it('splits a push into batches of at most the count and about the bytes given, never an empty one', () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ i, text: 'x'.repeat(90) }));
    expect(batchesBySize(items, 10_000, 3).map((batch) => batch.length)).toEqual([3, 3, 1]);
    expect(batchesBySize(items, 250, 500).map((batch) => batch.length)).toEqual([2, 2, 2, 1]);
    // An item larger than the limit still goes, alone.
    expect(batchesBySize([{ text: 'x'.repeat(1000) }], 100, 500)).toHaveLength(1);
    expect(batchesBySize([], 100, 500)).toEqual([]);
  });

  it('retries after LICENSE_SERVER_RETRY_SECONDS, twice as long after each failure, up to the maximum', () => {
    const config = loadConfig({ DATA_DIR: '/tmp', LICENSE_SERVER_RETRY_SECONDS: '30', LICENSE_SERVER_RETRY_MAX_SECONDS: '300' });
    const now = new Date('2025-01-01T00:00:00Z');
    const waits = [1, 2, 3, 4, 5, 40].map((attempts) => (retryAt(config, attempts, now).getTime() - now.getTime()) / 1000);
    expect(waits).toEqual([30, 60, 120, 240, 300, 300]);
  });
});
