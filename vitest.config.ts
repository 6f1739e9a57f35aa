import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting on child processes, sockets and Postgres, not on the CPU:
    // vitest's default (one file at a time on 2 cores) leaves the machine idle; three overlap the waits.
    maxWorkers: Math.max(3, availableParallelism()),
  },
});
