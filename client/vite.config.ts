import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { defineConfig, Plugin } from 'vite';

/** The message catalogs ship parsed (formatjs AST), so the browser needs no ICU parser: about 7 kB gzip less on every page. */
function precompiledMessages(): Plugin {
  return {
    name: 'precompiled-messages',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/i18n\/[a-z]{2}\.json$/.test(id)) return null;
      const messages: Record<string, string> = JSON.parse(code);
      const parsed = Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, parse(message)]));
      return { code: JSON.stringify(parsed), map: null };
    },
  };
}

export default defineConfig({
  plugins: [react(), precompiledMessages()],
  resolve: {
    // With every message parsed at build time, the runtime gets the parser's types and helpers without parse().
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
