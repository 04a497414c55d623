import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { DASHBOARD_HEADINGS, ROLES } from '@telehealth/shared';
import { expect, test } from '../support/fixtures.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Serious and critical axe violations, one line per element, so that a failure says what and where. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.impact} ${violation.id} (${violation.help}): ${node.html.slice(0, 160)}`,
      ),
    );
}

test('/login has no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();

  expect(await seriousViolations(page)).toEqual([]);
});

for (const role of ROLES) {
  test(`the ${role} dashboard has no serious or critical accessibility violations`, async ({ page, signInAs }) => {
    await signInAs(role);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: DASHBOARD_HEADINGS[role] })).toBeVisible();

    expect(await seriousViolations(page)).toEqual([]);
  });
}
