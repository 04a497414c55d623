/**
 * Budgets three times as long in CI, where the server tests share the two cores with the browser tests (decision
 * 055): under load a test that starts child processes (`npm run audit:verify` five times) passed 30 s with every
 * step right. Tests wait for states; this only moves the point at which the waiting is given up.
 */
export const SLOW_MACHINE = process.env.CI ? 3 : 1;

/** A server test's budget (vitest's `testTimeout`). */
export const TEST_BUDGET_MS = 30_000 * SLOW_MACHINE;
