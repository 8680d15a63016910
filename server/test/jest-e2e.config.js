const { existsSync } = require('node:fs');

/**
 * API end-to-end tests: the same suite once per database engine. SQLite always; MariaDB when
 * CI=true (then it must be reachable) or when TEST_MARIADB=1, or when its socket is present locally.
 */
const wantMariadb =
  process.env.CI === 'true' ||
  process.env.TEST_MARIADB === '1' ||
  (process.env.TEST_MARIADB !== '0' && existsSync('/run/mysqld/mysqld.sock'));

const project = (engine) => ({
  displayName: engine,
  rootDir: require('node:path').resolve(__dirname, '..'),
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  testEnvironment: 'node',
  setupFiles: [`<rootDir>/test/support/engine-${engine}.js`],
});

module.exports = {
  projects: [project('sqlite'), ...(wantMariadb ? [project('mariadb')] : [])],
  testTimeout: 60_000,
  maxWorkers: 2,
};
