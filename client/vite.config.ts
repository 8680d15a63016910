import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, Plugin } from 'vite';
import { partOf } from './src/i18n/catalog-parts';

/**
 * The message catalogs ship parsed (formatjs AST), so the browser needs no ICU parser: about 7 kB gzip less on every
 * page. `en.json?first&catalog`, `?landing&catalog`, `?signIn&catalog` and `?rest&catalog` are the parts of a catalog
 * (src/i18n/catalog-parts.ts); the unit tests split them too, without parsing (vitest.config.ts).
 */
export function precompiledMessages({ precompile = true } = {}): Plugin {
  return {
    name: 'precompiled-messages',
    enforce: 'pre',
    transform(code, id) {
      const match = /\/src\/i18n\/[a-z]{2}\.json(?:\?(first|landing|signIn|rest)&catalog)?$/.exec(id);
      if (!match) return null;
      const messages: Record<string, string> = JSON.parse(code);
      const part = match[1];
      const parsed = Object.fromEntries(
        Object.entries(messages)
          .filter(([key]) => !part || partOf(key) === part)
          .map(([key, message]) => [key, precompile ? parse(message) : message]),
      );
      // A part (`?…&catalog`) is no longer a .json module to the bundler: it becomes a JavaScript one.
      return { code: part ? `export default JSON.parse(${JSON.stringify(JSON.stringify(parsed))});` : JSON.stringify(parsed), map: null };
    },
  };
}

/**
 * In a build, every Mantine component brings its own (layered) stylesheet, the way a CSS module would, so a page loads
 * the styles of the components it renders instead of all 290 kB. The dev server pre-bundles Mantine, so it gets them all.
 */
function mantineStylesPerComponent(): Plugin {
  let build = false;
  return {
    name: 'mantine-styles-per-component',
    configResolved(config) {
      build = config.command === 'build';
    },
    transform(code, id) {
      if (!build && id.endsWith('/src/main.tsx')) return { code: `import '@mantine/core/styles.layer.css';\n${code}`, map: null };
      const component = build && /\/@mantine\/core\/esm\/.+\/(\w+)\.module\.mjs$/.exec(id)?.[1];
      return component ? { code: `import '@mantine/core/styles/${component}.layer.css';\n${code}`, map: null } : null;
    },
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|html)$/;

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip -9) next to every script, stylesheet, SVG and page of a
 * build, so the server sends them as they are (chosen by Accept-Encoding) instead of compressing on every request,
 * at a better ratio than it could afford per request. A file that would not get smaller gets no compressed twin.
 */
export function precompressedAssets(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = 'dist';
  return {
    name: 'precompressed-assets',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const bytes = await readFile(path);
          const [br, gzipped] = await Promise.all([
            brotli(bytes, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
            }),
            gz(bytes, { level: 9 }),
          ]);
          if (br.length < bytes.length) await writeFile(`${path}.br`, br);
          if (gzipped.length < bytes.length) await writeFile(`${path}.gz`, gzipped);
        }),
      );
    },
  };
}

// --- First-load size (issue 11 §4): build-only plugins, so the config below stays as it was ---
/**
 * react-router's package exports name only its development build (dev warnings on, about 0.5 kB gzip more); a build
 * takes the production one, the same code with them off. And every browser the portal supports knows modulepreload: no
 * polyfill in the entry chunk. The dev server and the unit tests keep the warnings.
 */
function productionRouter(): Plugin {
  const router = join(dirname(createRequire(import.meta.url).resolve('react-router')), '../production/index.mjs');
  return {
    name: 'production-router',
    apply: 'build',
    config: () => ({
      resolve: { alias: [{ find: /^react-router$/, replacement: router }] },
      build: { modulePreload: { polyfill: false } },
    }),
  };
}
/**
 * react-router keeps every component it defines in a bundle, used or not (Form, NavLink, ScrollRestoration, the data
 * routers' pieces): its module sets their displayName at top level and creates them with calls a bundler must assume
 * do something. Without those (devtools names only) and with the calls marked pure, what the app does not use goes.
 */
function treeShakeableRouter(): Plugin {
  return {
    name: 'tree-shakeable-router',
    apply: 'build',
    transform(code, id) {
      if (!/\/react-router\/dist\/production\/chunk-\w+\.mjs$/.test(id)) return null;
      const shakeable = code
        .replace(/^\w+\.displayName = "[^"]*";$/gm, '')
        .replace(/\b(React\d*\.(?:createContext|memo|forwardRef)\()/g, '/* @__PURE__ */ $1');
      return { code: shakeable, map: null };
    },
  };
}
/**
 * The landing page and the sign-in page each load lazily, as ONE chunk apiece: split by default, their modules (our
 * own and the Mantine components only they use) would each become a small chunk, compressed separately (about 5 kB gzip
 * more on `/`). Each group takes what only its page adds (never its dependencies: `includeDependenciesRecursively`
 * would pull React in). Everything the first bundle needs, plus what both pages use, is one chunk too, `first`, instead
 * of three (about 1.5 kB gzip less on each page); neither page loads the other's chunk.
 */
function firstPageChunks(): Plugin {
  const pages = { landing: '/src/features/public/LandingPage.tsx', signIn: '/src/features/auth/LoginPage.tsx' };
  const groupOf = new Map<string, string>();
  return {
    name: 'first-page-chunks',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'first', test: (id: string) => groupOf.get(id) === 'first', includeDependenciesRecursively: false, priority: 3 },
                {
                  name: 'landing',
                  test: (id: string) => groupOf.get(id) === 'landing',
                  includeDependenciesRecursively: false,
                  priority: 2,
                },
                { name: 'sign-in', test: (id: string) => groupOf.get(id) === 'signIn', includeDependenciesRecursively: false, priority: 1 },
              ],
            },
          },
        },
      },
    }),
    buildEnd() {
      const ids = [...this.getModuleIds()];
      // Through a package's index (Mantine's, Tabler's icons), follow only the names a module imports, not every module
      // the index lists: its modules are found where the index imports or re-exports each name from.
      const barrels = new Map<string, Map<string, string>>();
      const barrel = (id: string) => {
        if (!/\/node_modules\/(@mantine\/(core|hooks)\/esm\/index|@tabler\/icons-react\/dist\/esm\/tabler-icons-react)\.mjs$/.test(id))
          return undefined;
        if (!barrels.has(id)) {
          const names = new Map<string, string>();
          const code = this.getModuleInfo(id)?.code ?? '';
          for (const [, list, from] of code.matchAll(/(?:import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g))
            for (const name of list.split(','))
              names.set(
                name
                  .trim()
                  .split(/\s+as\s+/)
                  .pop()!,
                join(dirname(id), from),
              );
          barrels.set(id, names);
        }
        return barrels.get(id);
      };
      const closure = (root: string) => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          const info = this.getModuleInfo(id);
          const named = [...(info?.code ?? '').matchAll(/import\s*\{([^}]*)\}\s*from/g)].flatMap(([, list]) =>
            list.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]),
          );
          for (const imported of info?.importedIds ?? []) {
            const names = barrel(imported);
            if (!names) visit(imported);
            else for (const name of named) if (names.has(name)) visit(names.get(name)!);
          }
        };
        visit(root);
        return seen;
      };
      const entry = ids.find((id) => this.getModuleInfo(id)?.isEntry);
      const landingId = ids.find((id) => id.endsWith(pages.landing));
      const signInId = ids.find((id) => id.endsWith(pages.signIn));
      if (!entry || !landingId || !signInId) return;
      const first = closure(entry);
      const landing = closure(landingId);
      const signIn = closure(signInId);
      for (const id of first) if (id !== entry) groupOf.set(id, 'first');
      for (const id of landing) if (!first.has(id)) groupOf.set(id, signIn.has(id) ? 'first' : 'landing');
      for (const id of signIn) if (!first.has(id) && !landing.has(id)) groupOf.set(id, 'signIn');
      // `FIRST_PAGE_CHUNKS_DEBUG=1 npx vite build` lists which module went to which group.
      if (process.env.FIRST_PAGE_CHUNKS_DEBUG) console.log([...groupOf].map(([id, group]) => `${group}\t${id}`).join('\n'));
    },
  };
}
/**
 * Mantine hangs `Button.Group`, `Button.GroupSection`, `ActionIcon.Group` and `ActionIcon.GroupSection` on the
 * components (statics a bundler cannot drop), so every page with a button carries the group components too. The app
 * uses none of them (the build fails if it starts to: use the named exports, `ButtonGroup` and the like, which stay).
 */
function withoutGroupStatics(): Plugin {
  return {
    name: 'without-group-statics',
    apply: 'build',
    transform(code, id) {
      if (/\/client\/src\/.+\.tsx?$/.test(id) && /\b(Button|ActionIcon)\.Group/.test(code))
        this.error(`${id} uses Button.Group/ActionIcon.Group: import ButtonGroup/ActionIconGroup instead (vite.config.ts)`);
      if (!/\/@mantine\/core\/esm\/components\/(Button\/Button|ActionIcon\/ActionIcon)\.mjs$/.test(id)) return null;
      return { code: code.replace(/^(Button|ActionIcon)\.(Group|GroupSection) = \w+;$/gm, ''), map: null };
    },
  };
}
const firstLoadSize = () => [productionRouter(), treeShakeableRouter(), withoutGroupStatics(), firstPageChunks()];
// --- end first-load size ---

export default defineConfig({
  plugins: [react(), precompiledMessages(), mantineStylesPerComponent(), firstLoadSize(), precompressedAssets()],
  resolve: {
    // With every message parsed at build time, the runtime gets the parser's types and helpers without parse().
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
