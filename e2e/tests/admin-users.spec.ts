import { expect, submitSignInForm, test } from '../support/fixtures.ts';
import { uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { linkFromOutbox } from '../support/outbox.ts';
import { expectFitsPhone } from '../support/phone.ts';
import { scaled, within } from '../support/budget.ts';
import { keepScreenshot } from '../support/screenshots.ts';

const PASSWORD = 'Invited-Provider-2026!';

test('an administrator invites a provider, who sets a password; the administrator finds and deactivates them', async ({
  page,
  browser,
  baseURL,
  signInAs,
}) => {
  // One person's whole path through two browsers (invite, set a password, sign in, deactivation, phone, Spanish).
  test.setTimeout(scaled(240_000));
  const lastName = `Invitee${uniqueLetters()}`;
  const email = `${lastName.toLowerCase()}@example.test`;
  await signInAs('admin');
  await page.goto('/admin/users');
  // The first load of the lazy screen can take a while on a busy machine.
  await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible(within(30_000));
  await expect(page.getByText('Loading accounts…')).toBeHidden();
  expect(await seriousViolations(page)).toEqual([]);

  // Invite: the form checks with the shared schema first, then the server creates the account and the link.
  await page.getByRole('button', { name: 'Invite a user' }).click();
  const form = page.getByRole('dialog', { name: 'Invite a user' });
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form.getByText('First name is required')).toBeVisible();
  await form.getByRole('textbox', { name: 'First name' }).fill('Iris');
  await form.getByRole('textbox', { name: 'Last name' }).fill(lastName);
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByRole('combobox', { name: 'Specialty' }).click();
  await page.getByRole('option', { name: 'Psychology' }).click();
  expect(await seriousViolations(page)).toEqual([]);
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`An invitation is on its way to ${email}.`)).toBeVisible();

  // The person follows the e-mailed link in another browser and sets a password.
  const link = await linkFromOutbox(page, email, 'Invitation');
  const personContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const person = await personContext.newPage();
  await person.goto(link);
  await person.getByLabel(/^New password/).fill(PASSWORD);
  await person.getByLabel(/^Confirm new password/).fill(PASSWORD);
  await person.getByRole('button', { name: 'Set password' }).click();
  await person.getByRole('link', { name: 'Go to Sign In' }).click();
  await submitSignInForm(person, email, PASSWORD);
  await expect(person.getByRole('heading', { name: 'Provider Dashboard' })).toBeVisible(within(30_000));

  // The administrator finds them by name, with their last sign-in.
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search by name or email' }).fill(lastName);
  const row = page.getByRole('listitem').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('listitem')).toHaveCount(1);
  await expect(row.getByText(/Last sign-in:/)).toBeVisible();

  // Deactivate, after a confirmation that names the consequence.
  await row.getByRole('button', { name: `Actions for Iris ${lastName}` }).click();
  await page.getByRole('menuitem', { name: 'Deactivate' }).click();
  const confirm = page.getByRole('dialog', { name: `Deactivate Iris ${lastName}?` });
  await expect(
    confirm.getByText('They will be signed out everywhere at once and cannot sign in until reactivated.', {
      exact: false,
    }),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText(`Iris ${lastName} is deactivated and signed out everywhere.`)).toBeVisible();
  await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();

  // Their open page loses its session at once; signing in again is refused with a clear message.
  await person.reload();
  await expect(person).toHaveURL(/\/login/);
  await submitSignInForm(person, email, PASSWORD);
  await expect(
    person.getByText('This account is not active. Please contact your practice administrator.'),
  ).toBeVisible();
  await personContext.close();

  // On a phone, in Spanish.
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Gestión de usuarios', level: 1 })).toBeVisible(within(30_000));
  await page.getByRole('searchbox', { name: 'Buscar por nombre o correo electrónico' }).fill(lastName);
  await expect(
    page.getByRole('listitem').filter({ hasText: email }).getByText('Desactivada', { exact: true }),
  ).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, 'test-results/admin-users-390.png');
});
