import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The serious and critical WCAG 2.1 AA violations on the page as it is, one line per element: what and where. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Judge the page as people see it once settled: text still fading in (the landing page's entrance) has, for a
  // moment, less contrast than it will have. Endless animations (spinners) are not waited for. Nor is a part of the
  // page still loading (`aria-busy`): the patient list, dimmed while a search runs, failed contrast when judged then.
  await page.waitForFunction(
    () =>
      document.querySelector('[aria-busy="true"]') === null &&
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  // Legacy mode: `axe.run` in the page itself. The default (`runPartial` in each frame, then `finishRun`) opens a
  // second, blank page for every scan, injects axe-core (650 kB) there too and hands it every node's result; it
  // exists for cross-origin frames, which the app has none of (no iframes; the CSP allows only its own origin).
  // The same rules and the same results (passes, incomplete and violations compared on /login, a dashboard and
  // /patients), for about half the CPU per scan (decision 055).
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.impact} ${violation.id} (${violation.help}): ${node.html.slice(0, 160)}`,
      ),
    );
}
