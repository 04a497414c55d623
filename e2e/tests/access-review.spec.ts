import type { Page } from '@playwright/test';
import { expect, submitSignInForm, test } from '../support/fixtures.ts';
import { submitPatientRequest, uniqueLetters, type Requester } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { linkFromOutbox } from '../support/outbox.ts';
import { expectFitsPhone } from '../support/phone.ts';

const NEW_PASSWORD = 'Invited-Pass-2026!';

function newRequester(): Requester {
  const letters = uniqueLetters();
  return { firstName: 'Robin', lastName: `Review${letters}`, email: `robin.${letters}@example.test` };
}

/** Opens the new request of `person` on the review page. */
async function openRequest(page: Page, person: Requester) {
  await page.goto('/admin/access-requests');
  await expect(page.getByRole('heading', { name: 'Access Requests', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Access request from ${person.firstName} ${person.lastName}` });
  await expect(dialog.getByText('Help with anxiety and sleep.')).toBeVisible();
  return dialog;
}

test('a patient asks for access, is approved, sets a password from the invitation and reaches the Patient Portal', async ({
  page,
  signInAs,
  baseURL,
  browser,
}) => {
  const origin = new URL(baseURL ?? '').origin;
  const person = newRequester();
  await submitPatientRequest(page.request, origin, person);

  await signInAs('admin');
  const dialog = await openRequest(page, person);
  await expect(dialog.getByText(person.email)).toBeVisible();
  // A patient request needs a primary provider.
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog.getByText('Please choose a provider')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Primary provider' }).click();
  await page.getByRole('option', { name: 'Maya Okafor' }).click();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The request is approved and an invitation has been sent.')).toBeVisible();
  await page.getByText(/^Approved \(\d+\)$/).click();
  await page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` }).click();

  // Until a password is set, the review can send a new link; the first one stops working.
  const approved = page.getByRole('dialog', { name: `Access request from ${person.firstName} ${person.lastName}` });
  await expect(approved.getByText('Invitation pending')).toBeVisible();
  await expect(approved.getByText(/The invitation link works until/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const first = await linkFromOutbox(page, person.email, 'Invitation');
  await page.goto('/admin/access-requests');
  await page.getByText(/^Approved \(\d+\)$/).click();
  await page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` }).click();
  await approved.getByRole('button', { name: 'Resend invitation' }).click();
  await expect(
    page.getByText(`A new invitation was sent to ${person.email}. The previous link no longer works.`),
  ).toBeVisible();

  const link = await linkFromOutbox(page, person.email, 'Invitation');
  expect(link).toMatch(/\/invite#/);
  expect(link).not.toBe(first);

  // The invitee, in a browser of their own.
  const context = await browser.newContext({ baseURL: baseURL ?? '' });
  const invitee = await context.newPage();
  await invitee.goto(first);
  await expect(invitee.getByRole('heading', { name: 'This invitation link is not valid' })).toBeVisible();
  await invitee.goto('/');
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(invitee.getByText(person.email)).toBeVisible();
  await invitee.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
  await invitee.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill('short');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByRole('textbox', { name: 'New password', exact: true })).toHaveAccessibleDescription(
    /Password must be at least 8 characters long/,
  );
  await invitee.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await invitee.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill(NEW_PASSWORD);
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByRole('heading', { name: 'Your password is set' })).toBeVisible();

  // The link works once.
  await invitee.goto('/');
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'This invitation has already been used' })).toBeVisible();

  await invitee.goto('/login');
  await submitSignInForm(invitee, person.email, NEW_PASSWORD);
  await expect(invitee.getByRole('heading', { name: 'Patient Portal' })).toBeVisible();
  await context.close();
});

test('an administrator declines a request with a reason', async ({ page, signInAs, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const person = newRequester();
  await submitPatientRequest(page.request, origin, person);

  await signInAs('admin');
  const dialog = await openRequest(page, person);
  await dialog.getByRole('button', { name: 'Decline' }).click();
  const decline = page.getByRole('dialog', { name: 'Decline the request' });
  await decline.getByRole('button', { name: 'Decline request' }).click();
  await expect(decline.getByText('Reason is required')).toBeVisible();
  await decline.getByRole('textbox', { name: 'Reason' }).fill('Outside the practice area.');
  await decline.getByRole('button', { name: 'Decline request' }).click();
  await expect(page.getByText('The request is declined.')).toBeVisible();
  await expect(page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` })).toHaveCount(0);

  await page.getByText(/^Declined \(\d+\)$/).click();
  await page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` }).click();
  await expect(page.getByRole('dialog').getByText('Reason: Outside the practice area.')).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Approve' })).toHaveCount(0);
});

test('the review page and the invite page have no serious or critical accessibility violations', async ({
  page,
  signInAs,
}) => {
  await page.goto('/invite#not-a-real-token');
  await expect(page.getByRole('heading', { name: 'This invitation link is not valid' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await signInAs('admin');
  await page.goto('/admin/access-requests');
  await expect(page.getByRole('heading', { name: 'Access Requests', level: 1 })).toBeVisible();
  await expect(page.getByText('Loading access requests…')).toBeHidden();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the stored-text review is linked from the console and says when nothing needs attention', async ({
  page,
  signInAs,
}) => {
  await signInAs('admin');
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Stored text review' }).click();
  await expect(page.getByRole('heading', { name: 'Stored text review', level: 1 })).toBeVisible();
  // The server reviewed its (new) database at start: everything in it was written under the rule.
  await expect(page.getByText('Nothing needs attention: every stored text meets the input rules.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('checkbox', { name: 'Show resolved findings' }).check();
  await expect(page.getByText('No stored text has ever needed attention.')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
});
