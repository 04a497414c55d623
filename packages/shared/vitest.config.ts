import { defineConfig } from 'vitest/config';

/**
 * Budgets three times as long in CI, where the unit tests share the two cores with lint, the type check and the
 * build (decision 055): a property test that takes 1-2 s alone passed vitest's default 5 s there with every case
 * right. Tests wait for states; this only moves the point at which the waiting is given up.
 */
const SLOW_MACHINE = process.env.CI ? 3 : 1;

export default defineConfig({
  test: { name: 'shared', include: ['src/**/*.test.ts'], testTimeout: 5_000 * SLOW_MACHINE },
});
