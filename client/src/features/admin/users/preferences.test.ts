import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, loadPreferences, savePreferences, toListParams, USERS_PREFERENCES_KEY } from './preferences';

describe('users preferences', () => {
  it('persist and come back', () => {
    savePreferences({ ...DEFAULT_PREFERENCES, role: 'moderator', limit: 25, page: 3, sort: 'name', order: 'asc' });
    expect(loadPreferences()).toMatchObject({ role: 'moderator', limit: 25, page: 3, sort: 'name', order: 'asc' });
  });

  it('ignore stored values that no longer fit', () => {
    localStorage.setItem(USERS_PREFERENCES_KEY, JSON.stringify({ limit: 7, page: -2 }));
    expect(loadPreferences()).toMatchObject({ limit: 10, page: 1 });
    localStorage.setItem(USERS_PREFERENCES_KEY, '{broken');
    expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
  });

  it("send no filter for 'all' and trim the search", () => {
    expect(toListParams({ ...DEFAULT_PREFERENCES, status: 'inactive', emailStatus: 'verified' }, '  ada ')).toEqual({
      search: 'ada',
      status: 'inactive',
      role: undefined,
      email_status: 'verified',
      sort: 'created_at',
      order: 'desc',
      page: 1,
      limit: 10,
    });
  });
});
