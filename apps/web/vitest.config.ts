import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Budgets three times as long in CI, where the unit tests share the two cores with lint, the type check and the
 * build (decision 055); vitest's default is 5 s. Tests wait for states; this only moves the point at which the
 * waiting is given up.
 */
const SLOW_MACHINE = process.env.CI ? 3 : 1;

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    // Each file still runs in a context of its own, but jsdom is built once per worker instead of once per file:
    // building it 47 times was 38% of the run (vitest's own report). `npm run test:unit` went from 114 s to about 42 s.
    pool: 'vmThreads',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    restoreMocks: true,
    testTimeout: 5_000 * SLOW_MACHINE,
    // Read by src/testing/setup-tests.ts for testing-library's own waiting (findBy…, waitFor).
    env: { TEST_SLOW_MACHINE: String(SLOW_MACHINE) },
  },
});
