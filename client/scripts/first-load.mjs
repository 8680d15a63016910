// The files a first visit downloads before the page can render, read from Vite's build manifest
// (client/dist/.vite/manifest.json): the entry chunk and its static imports, plus for a lazily
// loaded route the chunks the router loads for it and their static imports. Shared by bench/bundle-size.mjs and .size-limit.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The first-load routes we budget, with the modules the router loads lazily for them (see src/app/router.tsx). */
export const ROUTES = {
  '/': [],
  '/login': ['src/features/auth/LoginPage.tsx', 'src/i18n/en.json?catalog=signIn'],
};

/** For each route, the JS and CSS files (paths inside dist) a first visit loads, in load order. */
export function firstLoad(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error(`no entry in ${dist}/.vite/manifest.json`);

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
      const missing = lazyModules.find((module) => !manifest[module]);
      if (missing) throw new Error(`${missing} is not a chunk of the build`);
      const chunks = closure([entry, ...lazyModules]);
      return [route, { js: chunks.map((chunk) => chunk.file), css: chunks.flatMap((chunk) => chunk.css ?? []) }];
    }),
  );
}
