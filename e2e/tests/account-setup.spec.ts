import { expect, fetchCurrentUser, signInByApi, submitSignInForm, test } from '../support/fixtures.ts';
import { approvePatientRequest, submitPatientRequest, uniqueLetters } from '../support/access-requests.ts';
import { mailTextFromOutbox } from '../support/outbox.ts';

const FIRST_PASSWORD = 'First-Pass-2026!';
const NEW_PASSWORD = 'Second-Pass-2026?';

test('a person who forgot the password resets it with the e-mailed code, and the old sessions end', async ({
  page,
  signInAs,
  baseURL,
  browser,
}) => {
  const origin = new URL(baseURL ?? '').origin;
  const person = {
    firstName: 'Sam',
    lastName: `Reset${uniqueLetters()}`,
    email: `sam.${uniqueLetters()}@example.test`,
  };
  const { email } = person;

  // An account of its own: a patient request, approved, its invitation accepted (through the API).
  await submitPatientRequest(page.request, origin, person, {
    dateOfBirth: '1985-09-30',
    phone: '555-010-4050',
    reasonForInterest: 'Therapy.',
  });
  await signInAs('admin');
  await approvePatientRequest(page, person);
  const invitation = await mailTextFromOutbox(page, email, 'Invitation');
  const token = /\/invite#([^\s]+)/.exec(invitation)?.[1] ?? '';
  expect(token).not.toBe('');
  const accepted = await page.request.post('/graphql', {
    headers: { origin },
    data: {
      query: 'mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }',
      variables: { t: token, p: FIRST_PASSWORD },
    },
  });
  expect(((await accepted.json()) as { errors?: unknown }).errors).toBeUndefined();

  // The person is signed in on one device...
  const signedInContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const signedIn = await signedInContext.newPage();
  await signInByApi(signedIn, email, origin, FIRST_PASSWORD);
  await signedIn.goto('/dashboard');
  await expect(signedIn.getByRole('heading', { name: 'Patient Portal' })).toBeVisible();

  // ...and asks for a reset on another.
  const otherContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const other = await otherContext.newPage();
  await other.goto('/forgot-password');
  await other.getByRole('textbox', { name: 'Email' }).fill(email);
  await other.getByRole('button', { name: 'Send code' }).click();
  await expect(other.getByText(/If an account exists for this email/)).toBeVisible();

  const resetMail = await mailTextFromOutbox(page, email, 'Password reset');
  const code = /\b(\d{6})\b/.exec(resetMail)?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);

  await other.getByRole('textbox', { name: '6-digit code' }).fill(code);
  await other.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await other.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill(NEW_PASSWORD);
  await other.getByRole('button', { name: 'Reset password' }).click();
  await expect(other.getByText('Your password has been changed. Please sign in with your new password.')).toBeVisible();

  // The first device's session is gone.
  expect(await fetchCurrentUser(signedIn, origin)).toBeNull();
  await signedIn.reload();
  await expect(signedIn).toHaveURL(/\/login$/);

  // The old password no longer works; the new one does.
  await other.getByRole('link', { name: 'Go to Sign In' }).click();
  await submitSignInForm(other, email, FIRST_PASSWORD);
  await expect(other).toHaveURL(/\/login$/);
  await submitSignInForm(other, email, NEW_PASSWORD);
  await expect(other.getByRole('heading', { name: 'Patient Portal' })).toBeVisible();

  await signedInContext.close();
  await otherContext.close();
});

test('the same answer for an unknown address, and a clear state for a broken reset link', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByRole('textbox', { name: 'Email' }).fill('nobody-here@example.test');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/If an account exists for this email/)).toBeVisible();

  await page.goto('/reset-password');
  await expect(page.getByText(/This link is incomplete/)).toBeVisible();
  await page.goto('/reset-password#not-a-real-token');
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /not valid|expired/ })).toBeVisible();
});
