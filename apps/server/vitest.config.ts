import { defineConfig } from 'vitest/config';

/**
 * Budgets three times as long in CI, where the server tests share the two cores with the browser tests (decision
 * 055): under load a test that starts child processes (`npm run audit:verify` five times) passed 30 s with every
 * step right. Tests wait for states; this only moves the point at which the waiting is given up.
 */
const SLOW_MACHINE = process.env.CI ? 3 : 1;

export default defineConfig({
  // Node loads graphql's CommonJS build for everyone; without this Vite would give our code the ESM build,
  // and two copies of graphql would meet in one schema.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each file gets its own database; two workers match the machine's two cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000 * SLOW_MACHINE,
    hookTimeout: 60_000 * SLOW_MACHINE,
  },
});
