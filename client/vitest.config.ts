import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompiledMessages } from './vite.config';

export default defineConfig({
  // The catalogs in their parts, as the app loads them (unparsed: the tests keep the ICU parser).
  plugins: [react(), precompiledMessages({ precompile: false })],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Typing tests (userEvent) take seconds on a loaded two-core CI machine; a test that hangs still fails.
    testTimeout: 20_000,
  },
});
