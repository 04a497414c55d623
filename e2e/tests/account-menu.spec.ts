import { ROLES } from '@telehealth/shared';
import { expect, fullName, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';

// The user menu leads every role to a real screen of their own settings, My account (decision 031), and
// nothing in the product is a screen "in development".

for (const role of ROLES) {
  test(`the user menu leads a ${role} to My account: language, two-factor and password, never a placeholder`, async ({
    page,
    signInAs,
  }) => {
    const account = await signInAs(role);
    await page.goto('/dashboard');
    await page
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(fullName(account)) })
      .click();
    await expect(page.getByRole('menuitem', { name: 'Security' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Settings' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'My account' }).click();

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Password' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Manage two-factor sign-in' })).toBeVisible();

    // The old address, bookmarked or typed, lands on the same screen.
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
    await expect(page.getByText('In development')).toHaveCount(0);
  });
}

test('My account from the user menu, in Spanish on a phone, with no serious accessibility violations', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  const account = await signInAs('provider');
  await page.goto('/dashboard');
  await page
    .getByRole('banner')
    .getByRole('button', { name: new RegExp(fullName(account)) })
    .click();
  await expect(page.getByRole('menuitem', { name: 'Configuración' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Mi cuenta' }).click();

  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mi cuenta' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Idioma' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Contraseña' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Gestionar la verificación en dos pasos' })).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Mi cuenta' })).toBeVisible();
  await expect(page.getByText('En desarrollo')).toHaveCount(0);
});
