/** ts-jest in ESM mode: run through `npm test` (node --experimental-vm-modules). */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testTimeout: 30000,
  // Two workers even on two cores: most suites wait on sockets, processes and timers (the bot
  // against its simulators), so a second worker overlaps the waits; one worker took 14 min here.
  maxWorkers: 2,
  // One fresh build of dist/ per run, for the suites that spawn the compiled CLI.
  globalSetup: '<rootDir>/test/global-setup.js',
};
