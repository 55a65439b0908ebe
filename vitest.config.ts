import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time, also on a 2-core runner (vitest's default there is cores - 1 = 1): many files
    // spend most of their time waiting (on timers, on child processes, on an emulator's answers), and one at a
    // time left a core idle behind them.
    maxWorkers: 2,
    // Builds dist/ first when it is older than the sources (tests run bin/rcsctl.js and the packed package).
    globalSetup: ['./test/global-build.ts'],
    setupFiles: ['./test/setup-env.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
