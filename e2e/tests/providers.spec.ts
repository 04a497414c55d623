import { randomBytes } from 'node:crypto';
import { DASHBOARD_HEADINGS } from '@telehealth/shared';
import { expect, submitSignInForm, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';
import { linkFromOutbox } from '../support/outbox.ts';

function uniqueName(prefix: string): string {
  const letters = Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `${prefix}${letters}`;
}

test('everyone signed in sees the providers; only administrators may add one', async ({ page, signInAs }) => {
  await signInAs('provider');
  await page.goto('/doctors');
  await expect(page.getByRole('heading', { name: 'Providers', level: 1 })).toBeVisible();
  const maya = page.getByRole('article', { name: 'Maya Okafor' });
  await expect(maya.getByText('Psychiatry', { exact: true })).toBeVisible();
  await expect(maya.getByText('14 years of experience')).toBeVisible();
  await expect(maya.getByRole('link', { name: 'provider@demo.test' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Provider' })).toHaveCount(0);
});

test('an administrator adds a provider: messages at the fields first, then the new card', async ({
  page,
  signInAs,
}) => {
  const lastName = uniqueName('Newcomer');
  await signInAs('admin');
  await page.goto('/doctors');
  await page.getByRole('button', { name: 'Add Provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Provider' });
  await expect(dialog.getByText(/setting a password through the invitation e-mail/)).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Email' }).fill('not an email');
  await dialog.getByRole('button', { name: 'Add Provider' }).click();
  await expect(dialog.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription(
    'First name is required',
  );
  await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
    'Please enter a valid email address',
  );
  await expect(dialog.getByText('Please choose a specialty')).toBeVisible();

  await dialog.getByRole('textbox', { name: 'First name' }).fill('Ines');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill(lastName);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(`ines.${lastName}@example.test`);
  await dialog.getByRole('combobox', { name: 'Specialty' }).click();
  await page.getByRole('option', { name: 'Neurology' }).click();
  await dialog.getByLabel('Years of experience').fill('6');
  await dialog.getByLabel('Short biography').fill('Neurologist with an interest in sleep and mood.');
  await dialog.getByRole('button', { name: 'Add Provider' }).click();

  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Ines ${lastName} was added as a provider.`)).toBeVisible();
  const card = page.getByRole('article', { name: `Ines ${lastName}` });
  await expect(card.getByText('Neurology', { exact: true })).toBeVisible();
  await expect(card.getByText('6 years of experience')).toBeVisible();

  // The new provider can be chosen as a patient's primary provider.
  await page.goto('/patients/new');
  await page.getByRole('combobox', { name: 'Primary provider' }).click();
  await expect(page.getByRole('option', { name: new RegExp(`^Ines ${lastName}`) })).toBeVisible();
});

test('a provider an administrator adds is invited, sets a password from the outbox link and signs in', async ({
  page,
  signInAs,
  browser,
  baseURL,
}) => {
  const lastName = uniqueName('Invitee');
  const email = `noor.${lastName}@example.test`;
  const password = 'Provider-Invite-2026!';
  await signInAs('admin');
  await page.goto('/doctors');
  await page.getByRole('button', { name: 'Add Provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Provider' });
  await dialog.getByRole('textbox', { name: 'First name' }).fill('Noor');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill(lastName);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByRole('combobox', { name: 'Specialty' }).click();
  await page.getByRole('option', { name: 'Psychiatry' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Send the invitation e-mail now' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Add Provider' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`An invitation to set a password was sent to ${email}.`)).toBeVisible();

  const card = page.getByRole('article', { name: `Noor ${lastName}` });
  await expect(card.getByText('Invitation pending')).toBeVisible();
  await expect(card.getByText(/^Invitation link works until/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const first = await linkFromOutbox(page, email, 'Invitation');
  expect(first).toMatch(/\/invite#/);

  // Sending again replaces the link: the first one stops working.
  await page.goto('/doctors');
  await card.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`An invitation was sent to ${email}. Any earlier link no longer works.`)).toBeVisible();
  const link = await linkFromOutbox(page, email, 'Invitation');
  expect(link).not.toBe(first);

  const context = await browser.newContext({ baseURL: baseURL ?? '' });
  const invitee = await context.newPage();
  await invitee.goto(first);
  await expect(invitee.getByRole('heading', { name: 'This invitation link is not valid' })).toBeVisible();
  await invitee.goto('/');
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(invitee.getByText(email)).toBeVisible();
  await invitee.getByRole('textbox', { name: 'New password', exact: true }).fill(password);
  await invitee.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill(password);
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByRole('heading', { name: 'Your password is set' })).toBeVisible();

  // Single use.
  await invitee.goto('/');
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'This invitation has already been used' })).toBeVisible();

  await invitee.goto('/login');
  await submitSignInForm(invitee, email, password);
  await expect(invitee.getByRole('heading', { name: DASHBOARD_HEADINGS.provider })).toBeVisible();
  await context.close();

  await page.goto('/doctors');
  await expect(card.getByText('Noor', { exact: false }).first()).toBeVisible();
  await expect(card.getByText('Invitation pending')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
});

test('/doctors and its form have no serious or critical accessibility violations', async ({ page, signInAs }) => {
  await signInAs('admin');
  await page.goto('/doctors');
  await expect(page.getByRole('article', { name: 'Maya Okafor' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Add Provider' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add Provider' }).click();
  await expect(page.getByText('Please choose a specialty')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
