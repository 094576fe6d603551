import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Server processes and the engine's own thread pool share 2 cores; forks keep each file isolated.
    pool: 'forks',
    maxWorkers: 2,
  },
});
