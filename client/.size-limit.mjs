// size-limit budgets for the JavaScript a first visit downloads (gzip), per route. The file lists come from the build
// manifest, as chunk names carry content hashes; so this runs after `vite build` (nx builds before the client tests).
// Target: 120 KiB for each (issue 11); the budgets hold what has been reached so far, so it cannot grow back.
import { fileURLToPath } from 'node:url';
import { firstLoad } from './scripts/first-load.mjs';

// Issue 13 split the catalogs (src/i18n/catalog-parts.ts); issue 11 §4 took the sign-in page off the query library and
// @mantine/form, and the sign-in screens' messages, Mantine's Input and SimpleGrid and react-router's unused parts off '/';
// then the landing page went lazy, it and the sign-in page one chunk each, the first bundle one chunk (vite.config.ts).
// The admin's versions table renders changelogs (2026-12-05): the Markdown reader became a chunk of its own, which the
// first bundle's preload map names for two routes: /login +24 bytes, past 119 KiB by 19.
const BUDGETS = { '/': '117 KiB', '/login': '119.1 KiB' };
const routes = firstLoad(fileURLToPath(new URL('./dist', import.meta.url)));

export default Object.entries(BUDGETS).map(([route, limit]) => ({
  name: `first-load JS of ${route}`,
  path: routes[route].js.map((file) => `dist/${file}`),
  gzip: true,
  limit,
}));
