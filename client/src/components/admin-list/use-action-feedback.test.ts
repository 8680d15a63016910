import { describe, expect, it } from 'vitest';
import { failureText } from './use-action-feedback';

describe('failureText', () => {
  const withReason = (reason: string) => `Sync failed: ${reason}`;
  it('gives the reason when there is one', () => {
    expect(failureText(withReason, 'Sync failed', 'License server unreachable')).toBe('Sync failed: License server unreachable');
  });
  it('falls back to the bare message when there is no reason, and only when a bare message exists', () => {
    expect(failureText(withReason, 'Sync failed', '')).toBe('Sync failed');
    expect(failureText(withReason, undefined, '')).toBe('Sync failed: ');
  });
});
