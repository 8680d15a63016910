import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { loadSignedInMessages } from '../i18n/locale';

// Mantine reads these browser APIs, which jsdom lacks.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => undefined,
  removeListener: () => undefined,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// Screens are tested with the whole catalog, as the router gives it to them (the English first part is there from the start).
beforeAll(() => loadSignedInMessages());

afterEach(() => {
  cleanup();
  localStorage.clear();
});
