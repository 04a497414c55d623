import { DASHBOARD_HEADINGS, ROLES } from '@telehealth/shared';
import { expect, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';

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
