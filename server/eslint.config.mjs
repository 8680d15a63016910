// ESLint for the server: typescript-eslint's recommended rules, run with --max-warnings 0 (`npm run lint`).
// Not type-aware: recommendedTypeChecked takes about 5× as long here (25 s against 5 s of CPU) and its findings are
// almost all no-unsafe-* on supertest's untyped bodies in the API tests; tsc --noEmit checks the types.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      // A leading underscore marks a value left out on purpose (`const { secret: _secret, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The mappers that build a list's or an export's objects, one a row: a key an object literal adds after a spread
    // takes V8's slow path on Node 20 and leaves an object that is slower to serialize; Object.assign adds it fast.
    files: ['src/modules/*/dto/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression > SpreadElement ~ Property',
          message: 'A key after a spread is slow on Node 20: use Object.assign(base, { ... }).',
        },
      ],
    },
  },
  {
    // Jest configs and the like are CommonJS, where require() is how modules load.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The test script that ships to streaming-server operators: plain Node ESM.
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
);
