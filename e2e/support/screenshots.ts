import type { Page } from '@playwright/test';

/**
 * A picture of the page for a person to look at later (how a screen looks on a phone), which no test reads. Taken
 * locally; in CI, where a run's test-results folder goes with its machine and only its output is read, it is not
 * taken unless `E2E_SCREENSHOTS=1`: encoding a whole page as PNG was CPU spent on nothing (decision 055). A failed
 * test still keeps its own screenshot (`screenshot: 'only-on-failure'`).
 */
export async function keepScreenshot(page: Page, path: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.CI && process.env.E2E_SCREENSHOTS !== '1') return;
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
}
