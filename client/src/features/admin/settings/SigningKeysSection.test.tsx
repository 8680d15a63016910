import { ModalsProvider } from '@mantine/modals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SigningKeyDto } from '../../../api/generated/model';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { signingKeyRows } from './signing-keys-display';
import { SigningKeysSection } from './SigningKeysSection';

const key = (over: Partial<SigningKeyDto>): SigningKeyDto => ({
  kid: '0123456789abcdef',
  algorithm: 'Ed25519',
  public_key_pem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n',
  current: false,
  created_at: '2026-12-01T10:00:00.000Z',
  retired_at: null,
  ...over,
});

describe('signingKeyRows', () => {
  it('puts the key that signs first, and lets only previous keys be removed', () => {
    const rows = signingKeyRows([
      key({ kid: 'aaaaaaaaaaaaaaaa', retired_at: '2026-12-02T10:00:00.000Z' }),
      key({ kid: 'bbbbbbbbbbbbbbbb', current: true }),
    ]);
    expect(rows.map(({ kid, status, removable }) => ({ kid, status, removable }))).toEqual([
      { kid: 'bbbbbbbbbbbbbbbb', status: 'current', removable: false },
      { kid: 'aaaaaaaaaaaaaaaa', status: 'previous', removable: true },
    ]);
    expect(rows[1].retiredAt).toBe('2026-12-02T10:00:00.000Z');
  });
});

describe('SigningKeysSection', () => {
  let keys: SigningKeyDto[];
  let calls: string[];

  beforeEach(() => {
    keys = [key({ kid: 'bbbbbbbbbbbbbbbb', current: true }), key({ kid: 'aaaaaaaaaaaaaaaa', retired_at: '2026-12-02T10:00:00.000Z' })];
    calls = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        calls.push(`${method} ${url}`);
        if (method === 'GET' && url.endsWith('/api/admin/signing-keys')) return jsonResponse(200, { success: true, data: keys });
        if (method === 'POST' && url.endsWith('/api/admin/signing-keys/rotate')) {
          const rotated = key({ kid: 'cccccccccccccccc', current: true });
          keys = [rotated, ...keys.map((listed) => ({ ...listed, current: false, retired_at: listed.retired_at ?? rotated.created_at }))];
          return jsonResponse(201, { success: true, message: 'A new signing key signs from now on', data: rotated });
        }
        if (method === 'DELETE') {
          const kid = url.split('/').at(-1)!;
          if (keys.find((listed) => listed.kid === kid)?.current)
            return jsonResponse(409, { statusCode: 409, message: 'This is the current signing key: rotate first, then remove it.' });
          keys = keys.filter((listed) => listed.kid !== kid);
          return jsonResponse(200, { success: true, message: 'Signing key removed' });
        }
        return jsonResponse(404, { statusCode: 404, message: 'Not found' });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const render = () =>
    renderWithProviders(
      <ModalsProvider>
        <SigningKeysSection />
      </ModalsProvider>,
    );

  it('lists the current key without a Remove button and previous keys with one', async () => {
    render();
    const current = await screen.findByTestId('signing-key-bbbbbbbbbbbbbbbb');
    expect(within(current).getByText('Signs now')).toBeTruthy();
    expect(within(current).queryByRole('button', { name: /Remove/ })).toBeNull();
    const previous = screen.getByTestId('signing-key-aaaaaaaaaaaaaaaa');
    expect(within(previous).getByText('Verifies only')).toBeTruthy();
    expect(within(previous).getByRole('button', { name: 'Remove key aaaaaaaaaaaaaaaa' })).toBeTruthy();
  });

  it('rotates only after the confirmation, then shows the new key on top', async () => {
    const user = userEvent.setup();
    render();
    await screen.findByTestId('signing-key-bbbbbbbbbbbbbbbb');
    await user.click(screen.getByRole('button', { name: 'Rotate key' }));
    expect(await screen.findByTestId('rotate-key-confirm')).toBeTruthy();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Rotate key' }));
    expect(await screen.findByText('Key cccccccccccccccc signs from now on.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getAllByTestId(/^signing-key-/).map((row) => row.getAttribute('data-testid'))).toEqual([
        'signing-key-cccccccccccccccc',
        'signing-key-bbbbbbbbbbbbbbbb',
        'signing-key-aaaaaaaaaaaaaaaa',
      ]),
    );
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /api/admin/signing-keys/rotate']);
  });

  it('removes a previous key after the confirmation that names it', async () => {
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Remove key aaaaaaaaaaaaaaaa' }));
    const confirmation = await screen.findByTestId('remove-key-confirm');
    expect(confirmation.textContent).toContain('aaaaaaaaaaaaaaaa');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove key' }));
    expect(await screen.findByText('Key aaaaaaaaaaaaaaaa was removed.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('signing-key-aaaaaaaaaaaaaaaa')).toBeNull());
    expect(calls).toContain('DELETE /api/admin/signing-keys/aaaaaaaaaaaaaaaa');
  });
});
