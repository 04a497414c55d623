import { expect, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';

/** A unique address per run, so a second run does not meet "an account with this email already exists". */
function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.org`;
}

test('the provider form shows its errors, then sends and thanks the doctor by last name', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: "I'm a Healthcare Provider" }).click();
  await expect(page.getByRole('heading', { name: 'Request provider access' })).toBeVisible();
  await expect(page.getByRole('heading', { name: "What's Next" })).toBeVisible();
  // Defaults from the shared schema: private practice, contact by email; the ZIP code is shown.
  await expect(page.getByLabel(/^Practice type/)).toHaveValue('private');
  await expect(page.getByLabel(/^Preferred contact method/)).toHaveValue('email');
  await expect(page.getByLabel(/^ZIP code/)).toBeVisible();

  await page.getByRole('button', { name: 'Submit Provider Request' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Medical license number is required')).toBeVisible();
  await expect(page.getByText('Organization name is required')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('highlighted fields');
  await expect(page.getByLabel(/^First name/)).toBeFocused();

  await page.getByLabel(/^First name/).fill('Ana');
  await page.getByLabel(/^Last name/).fill('Reyes');
  await page.getByLabel(/^Email/).fill(uniqueEmail('ana.reyes'));
  await page.getByLabel(/^Phone number/).fill('555 010 1234');
  await page.getByLabel(/^Medical license number/).fill('MD-204455');
  await page.getByLabel(/^Specialty/).selectOption('Psychiatry');
  await page.getByLabel(/^Years of experience/).selectOption('6-10');
  await page.getByLabel(/^Organization name/).fill('Reyes Psychiatry');
  await page.getByLabel(/^ZIP code/).fill('1234');
  await page.getByLabel('Video Consultations').check();
  await page.getByRole('button', { name: 'Submit Provider Request' }).click();
  await expect(page.getByText('Please enter a valid ZIP code')).toBeVisible();

  await page.getByLabel(/^ZIP code/).fill('02139');
  await page.getByRole('button', { name: 'Submit Provider Request' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you, Dr. Reyes!' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Home' }).click();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('the patient form hides its honeypot, needs consent, shows privacy and crisis information, and thanks by first name', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('button', { name: "I'm a Patient" }).click();
  await expect(page.getByRole('heading', { name: 'Request patient access' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your privacy' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Patient access request' });
  await expect(form.getByRole('link', { name: /988/ })).toHaveAttribute('href', 'tel:988');
  await expect(form.getByRole('link', { name: /911/ })).toHaveAttribute('href', 'tel:911');
  await expect(page.getByLabel(/^Language preference/)).toHaveValue('english');
  // The honeypot field is hidden from people and assistive technology.
  const honeypot = page.locator('input[name="website"]');
  await expect(honeypot).toHaveAttribute('tabindex', '-1');
  await expect(honeypot).toHaveAttribute('autocomplete', 'off');
  await expect(honeypot).toHaveValue('');
  await expect(page.locator('[aria-hidden="true"]:has(input[name="website"])')).toHaveCount(1);

  const submit = page.getByRole('button', { name: 'Submit Patient Request' });
  await expect(submit).toBeDisabled();
  await page.getByLabel(/I agree to be contacted/).check();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('Date of birth is required')).toBeVisible();
  await expect(page.getByText('Reason for interest is required')).toBeVisible();

  await page.getByLabel(/^First name/).fill('Maya');
  await page.getByLabel(/^Last name/).fill('Lopez');
  await page.getByLabel(/^Date of birth/).fill('1990-04-12');
  await page.getByLabel(/^Phone number/).fill('5550104567');
  await page.getByLabel(/^Email/).fill(uniqueEmail('maya.lopez'));
  await page.getByLabel(/^Reason for interest/).fill('I would like an evaluation for anxiety and poor sleep.');
  await page.getByLabel('Anxiety Treatment').check();
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Thank you, Maya!' })).toBeVisible();
  // Thanked once, and told a patient's next steps, not a provider's; the crisis lines stay on the screen.
  await expect(page.getByText(/Thank you/)).toHaveCount(1);
  const next = page.getByRole('complementary', { name: "What's Next" });
  await expect(next).toContainText('reviews your request within 1-2 business days');
  await expect(next).toContainText('by your preferred method');
  await expect(next).toContainText('invitation to create your patient account');
  await expect(next).toContainText('first visit');
  await expect(page.getByText('Credential verification')).toHaveCount(0);
  await expect(page.getByText('Platform training')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /988/ }).first()).toHaveAttribute('href', 'tel:988');
  expect(await seriousViolations(page)).toEqual([]);
});

test('each form has its own address; Back and Forward keep what was typed, also after leaving the page', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('button', { name: "I'm a Patient" }).click();
  await expect(page).toHaveURL(/\/request-access\/patient$/);
  await expect(page.getByRole('heading', { name: 'Request patient access' })).toBeVisible();
  await expect(page).toHaveTitle(/^Request patient access/);
  await page.getByLabel(/^First name/).fill('Nora');
  await page.getByLabel(/^Reason for interest/).fill('Trouble sleeping since the move.');
  await page.getByLabel('Family Therapy').check();

  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(/\/request-access\/patient$/);
  await expect(page.getByLabel(/^First name/)).toHaveValue('Nora');
  await expect(page.getByLabel(/^Reason for interest/)).toHaveValue('Trouble sleeping since the move.');
  await expect(page.getByLabel('Family Therapy')).toBeChecked();

  // Leaving the page for another and coming back with Back.
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: 'About the practice', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/request-access\/patient$/);
  await expect(page.getByLabel(/^First name/)).toHaveValue('Nora');
  await expect(page.getByLabel(/^Reason for interest/)).toHaveValue('Trouble sleeping since the move.');

  // The provider form's address opens it directly; Back to Home goes to sign-in.
  await page.goto('/request-access/provider');
  await expect(page.getByRole('heading', { name: 'Request provider access' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});

test('the patient form at its address, in Spanish on a phone, fits and has no serious accessibility violations', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await page.setViewportSize(PHONE);
  await page.goto('/request-access/patient');
  await expect(page.getByRole('heading', { name: 'Solicitar acceso como paciente' })).toBeVisible();
  const next = page.getByRole('complementary', { name: 'Próximos pasos' });
  await expect(next).toContainText('invitación para crear su cuenta de paciente');
  await expect(next).not.toContainText('credenciales');
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
});
