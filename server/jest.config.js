/** Unit tests: `*.spec.ts` beside the code. */
module.exports = {
  displayName: 'unit',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/../seeds/**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  testEnvironment: 'node',
};
