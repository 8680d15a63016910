// size-limit budgets for the JavaScript a first visit downloads (gzip), per route. The file lists come from the build
// manifest, as chunk names carry content hashes; so this runs after `vite build` (nx builds before the client tests).
// Target: 120 KiB for each (issue 11); the budgets hold what has been reached so far, so it cannot grow back.
import { fileURLToPath } from 'node:url';
import { firstLoad } from './scripts/first-load.mjs';

const BUDGETS = { '/': '133 KiB', '/login': '158 KiB' };
const routes = firstLoad(fileURLToPath(new URL('./dist', import.meta.url)));

export default Object.entries(BUDGETS).map(([route, limit]) => ({
  name: `first-load JS of ${route}`,
  path: routes[route].js.map((file) => `dist/${file}`),
  gzip: true,
  limit,
}));
