import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { approvePatientRequest, submitPatientRequest, uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, submitSignInForm, test } from '../support/fixtures.ts';
import { mailTextFromOutbox } from '../support/outbox.ts';

const PASSWORD = 'Totp-Pass-2026!';

/**
 * What an authenticator app shows for the key the page displayed (grouped in fours), `step` periods from now.
 * Each sign-in uses another step: the server accepts a code once.
 */
function codeFromApp(shownSecret: string, step = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(shownSecret.replace(/\s+/g, '')), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + step * 30_000 });
}

/** Nothing wider than the window (no sideways scrolling on a phone). */
async function fitsTheWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('a person enrols from the account menu and signs in with a code from the app', async ({
  page,
  signInAs,
  baseURL,
  browser,
}) => {
  const origin = new URL(baseURL ?? '').origin;
  const person = {
    firstName: 'Tess',
    lastName: `Totp${uniqueLetters()}`,
    email: `tess.${uniqueLetters()}@example.test`,
  };

  // An account of its own (a patient request, approved, the invitation accepted): the demo accounts stay
  // without two-factor for every other test.
  await submitPatientRequest(page.request, origin, person);
  await signInAs('admin');
  await approvePatientRequest(page, person);
  const token = /\/invite#([^\s]+)/.exec(await mailTextFromOutbox(page, person.email, 'Invitation'))?.[1] ?? '';
  const accepted = await page.request.post('/graphql', {
    headers: { origin },
    data: {
      query: 'mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }',
      variables: { t: token, p: PASSWORD },
    },
  });
  expect(((await accepted.json()) as { errors?: unknown }).errors).toBeUndefined();

  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: { width: 390, height: 844 } });
  const phone = await context.newPage();
  await signInByApi(phone, person.email, origin, PASSWORD);

  // The account menu leads to the security screen.
  await phone.goto('/dashboard');
  await phone
    .getByRole('banner')
    .getByRole('button', { name: new RegExp(`${person.firstName} ${person.lastName}`) })
    .click();
  await phone.getByRole('menuitem', { name: 'Security' }).click();
  await expect(phone).toHaveURL(/\/account\/security$/);
  await expect(phone.getByRole('heading', { name: 'Account security' })).toBeVisible();
  await expect(phone.getByText('Off', { exact: true })).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);

  await phone.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(phone.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await phone.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7 ]+$/);
  expect(await seriousViolations(phone)).toEqual([]);
  expect(await fitsTheWindow(phone)).toBe(true);

  await phone.getByRole('textbox', { name: '6-digit code' }).fill(codeFromApp(secret));
  await phone.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  const codes = phone.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  expect(await seriousViolations(phone)).toEqual([]);
  const done = phone.getByRole('button', { name: 'Done' });
  await expect(done).toBeDisabled();
  await phone.getByRole('checkbox', { name: 'I have saved my recovery codes' }).check();
  await done.click();
  await expect(phone.getByText('On', { exact: true })).toBeVisible();
  await expect(phone.getByText('10 recovery codes left.')).toBeVisible();

  // Signing in now asks for the code after the password, on the sign-in page.
  await phone
    .getByRole('banner')
    .getByRole('button', { name: new RegExp(person.lastName) })
    .click();
  await phone.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(phone).toHaveURL(/\/login$/);
  await submitSignInForm(phone, person.email, PASSWORD);
  const code = phone.getByRole('textbox', { name: '6-digit code' });
  await expect(code).toBeVisible();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(phone.getByRole('button', { name: 'Use a recovery code instead' })).toBeVisible();
  expect(await seriousViolations(phone)).toEqual([]);
  expect(await fitsTheWindow(phone)).toBe(true);

  await code.fill(codeFromApp(secret, 1));
  await phone.getByRole('button', { name: 'Verify' }).click();
  await expect(phone).toHaveURL(/\/dashboard$/);
  await expect(phone.getByRole('heading', { name: 'Patient Portal' })).toBeVisible();

  await context.close();
});
