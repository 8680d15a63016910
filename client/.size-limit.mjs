// size-limit budgets for the JavaScript a first visit downloads (gzip), per route. The file lists come from the build
// manifest, as chunk names carry content hashes; so this runs after `vite build` (nx builds before the client tests).
// Target: 120 KiB for each (issue 11); the budgets hold what has been reached so far, so it cannot grow back.
import { fileURLToPath } from 'node:url';
import { firstLoad } from './scripts/first-load.mjs';

// Issue 13 split the catalogs: the signed-in screens' messages load with those screens (src/i18n/catalog-parts.ts).
const BUDGETS = { '/': '127 KiB', '/login': '152 KiB' };
const routes = firstLoad(fileURLToPath(new URL('./dist', import.meta.url)));

export default Object.entries(BUDGETS).map(([route, limit]) => ({
  name: `first-load JS of ${route}`,
  path: routes[route].js.map((file) => `dist/${file}`),
  gzip: true,
  limit,
}));
