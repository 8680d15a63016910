import { describe, expect, it } from 'vitest';
import { rememberedOrigin } from './remembered-origin';

describe('rememberedOrigin', () => {
  it('returns to where the visitor came from, else the default', () => {
    expect(rememberedOrigin({ from: { pathname: '/secret-admin/users', search: '?q=1' } }, '/x')).toBe('/secret-admin/users?q=1');
    expect(rememberedOrigin(null, '/dashboard')).toBe('/dashboard');
    expect(rememberedOrigin({ from: { pathname: '/login' } }, '/dashboard')).toBe('/dashboard');
  });
});
