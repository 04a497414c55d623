import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

/** The phone every spec checks the screens at. */
export const PHONE = { width: 390, height: 844 };

/**
 * Nothing on the page is wider than a phone's screen once the page has laid itself out: a chart measures its box
 * with a ResizeObserver a frame after a resize, so a check made at once can see the width it had before.
 */
export async function expectFitsPhone(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}
