// The files a first visit downloads before the page can render, read from Vite's build manifest
// (client/dist/.vite/manifest.json): the entry chunk and its static imports, plus for a lazily
// loaded route the chunks the router loads for it and their static imports. Shared by bench/bundle-size.mjs and .size-limit.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The first-load routes we budget, with what the router loads lazily for them (see src/app/router.tsx): a module, or
 * the chunk vite.config.ts gathers a page's modules in (firstPageChunks: `landing`, `sign-in`), by name.
 */
export const ROUTES = {
  '/': ['landing', 'src/i18n/en.json?landing&catalog'],
  '/login': ['sign-in', 'src/i18n/en.json?signIn&catalog'],
};

/** For each route, the JS and CSS files (paths inside dist) a first visit loads, in load order. */
export function firstLoad(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  // The page's scripts: the entry, or (when vite.config.ts groups the entry's modules into the `first` chunk) that chunk.
  const scripts = [...readFileSync(join(dist, 'index.html'), 'utf8').matchAll(/<script type="module"[^>]* src="\/([^"]+)"/g)].map(
    (m) => m[1],
  );
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry || scripts.includes(manifest[key].file));
  if (!entries.length) throw new Error(`no entry in ${dist}/.vite/manifest.json`);

  const closure = (keys) => {
    const seen = new Set();
    const visit = (key) => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const imported of manifest[key].imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return [...seen].map((key) => manifest[key]);
  };

  return Object.fromEntries(
    Object.entries(ROUTES).map(([route, lazyModules]) => {
      const keys = lazyModules.map((module) =>
        manifest[module] ? module : Object.keys(manifest).find((key) => manifest[key].name === module),
      );
      const missing = lazyModules.find((_, index) => !keys[index]);
      if (missing) throw new Error(`${missing} is not a chunk of the build`);
      const chunks = closure([...entries, ...keys]);
      return [route, { js: chunks.map((chunk) => chunk.file), css: chunks.flatMap((chunk) => chunk.css ?? []) }];
    }),
  );
}
