import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const ADMIN_SCREENS = readdirSync(new URL('./src/features/admin', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SHARE = 'move what both need to src/lib or src/components';

// app/ composes features; features stand alone; lib/, components/, api/ and i18n/ sit below both.
const boundaries = [
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: `A feature imports no other feature: ${SHARE}.`,
  })),
  // Each admin screen stands alone too; only the admin area's router (features/admin/AdminArea.tsx) sees them all.
  ...ADMIN_SCREENS.map((screen) => ({
    target: `./src/features/admin/${screen}`,
    from: './src/features/admin',
    except: [`./${screen}`],
    message: `An admin screen imports no other admin screen: ${SHARE}.`,
  })),
  { target: './src/features', from: './src/app', message: `A feature imports nothing from app/: ${SHARE}.` },
  {
    target: ['./src/lib', './src/components', './src/api', './src/i18n'],
    from: ['./src/app', './src/features'],
    message: 'Shared code (lib, components, api, i18n) imports no feature and nothing from app/.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'src/api/generated', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } } },
    rules: { 'import/no-restricted-paths': ['error', { zones: boundaries }] },
  },
  { files: ['src/**/*.tsx'], ...reactHooks.configs.flat.recommended },
  { files: ['e2e/**/*.ts', 'scripts/**/*.mjs', '*.{ts,mjs,js}'], languageOptions: { globals: globals.node } },
);
