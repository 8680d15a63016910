import { extended } from './extended';

describe('extended', () => {
  it('adds the extra fields after the base object’s own, in order, and returns the base object itself', () => {
    const base = { id: 1, status: 'active' };
    const result = extended(base, { user_email: 'a@example.com', status: 'revoked' });
    expect(result).toBe(base);
    expect(Object.keys(result)).toEqual(['id', 'status', 'user_email']);
    expect(result).toEqual({ id: 1, status: 'revoked', user_email: 'a@example.com' });
  });

  it('gives what a spread gives, key for key, so the JSON of an answer is unchanged', () => {
    const made = () => ({ id: 7, expires_at: new Date(0), is_trial: false });
    const extra = { user_id: null, synced_at: new Date(1) };
    expect(JSON.stringify(extended(made(), extra))).toBe(JSON.stringify({ ...made(), ...extra }));
  });
});
