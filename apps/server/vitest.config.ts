import { defineConfig } from 'vitest/config';
import { SLOW_MACHINE, TEST_BUDGET_MS } from './test/budget.ts';

export default defineConfig({
  // Node loads graphql's CommonJS build for everyone; without this Vite would give our code the ESM build,
  // and two copies of graphql would meet in one schema.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Closes what each file opened, wherever it opened it (test/file-cleanup.ts).
    setupFiles: ['test/setup-file.ts'],
    // Each file gets its own database; two workers match the machine's two cores.
    pool: 'forks',
    maxWorkers: 2,
    // One worker process runs many files: the server's modules load once per worker instead of once per file
    // (about half the pass's CPU time; decision 055). What a file opens is closed when it ends (setupFiles).
    isolate: false,
    testTimeout: TEST_BUDGET_MS,
    hookTimeout: 60_000 * SLOW_MACHINE,
  },
});
