import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Builds dist/ first when it is older than the sources (tests run bin/rcsctl.js and the packed package).
    globalSetup: ['./test/global-build.ts'],
    setupFiles: ['./test/setup-env.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
