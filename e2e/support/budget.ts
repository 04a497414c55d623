/**
 * How much longer than on an idle machine a step may take before it counts as hung: three times as long in CI, where
 * the two cores are shared with the server tests (decision 055) and may be with other work. Beside other people's
 * builds and `stress-ng --cpu 2`, tests failed on their budget with every state arriving late, never wrong. Tests
 * still wait for states, never for times: this only moves the point at which the waiting is given up.
 */
export const SLOW_MACHINE = process.env.CI ? 3 : 1;

/**
 * The options for a wait with a budget of its own, scaled like every other budget: `within(30_000)` is 30 s here and
 * 90 s in CI. A budget written as a bare number would stay as it is on the busy machine, where the default budgets
 * grow past it (a mail poll with 15 s failed in CI while its default neighbours had 30).
 */
export function within(milliseconds: number): { timeout: number } {
  return { timeout: scaled(milliseconds) };
}

/** A whole test's budget, scaled the same way: `test.setTimeout(scaled(120_000))` (the default is 60 s, 180 s in CI). */
export function scaled(milliseconds: number): number {
  return milliseconds * SLOW_MACHINE;
}
