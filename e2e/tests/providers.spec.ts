import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/fixtures.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

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
  await expect(dialog.getByText(/receive an invitation to set a password/)).toBeVisible();

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

test('/doctors and its form have no serious or critical accessibility violations', async ({ page, signInAs }) => {
  await signInAs('admin');
  await page.goto('/doctors');
  await expect(page.getByRole('article', { name: 'Maya Okafor' })).toBeVisible();
  const serious = async () =>
    (await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.html.slice(0, 160)}`));
  expect(await serious()).toEqual([]);

  await page.getByRole('button', { name: 'Add Provider' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add Provider' }).click();
  await expect(page.getByText('Please choose a specialty')).toBeVisible();
  expect(await serious()).toEqual([]);
});
