import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, submitSignInForm, test } from '../support/fixtures.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const NEW_PASSWORD = 'Invited-Pass-2026!';

function uniqueLetters(): string {
  return Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

interface Requester {
  firstName: string;
  lastName: string;
  email: string;
}

function newRequester(): Requester {
  const letters = uniqueLetters();
  return { firstName: 'Robin', lastName: `Review${letters}`, email: `robin.${letters}@example.test` };
}

/** A visitor's patient access request, sent to the API as the public form would send it. */
async function submitPatientRequest(request: APIRequestContext, origin: string, person: Requester): Promise<void> {
  const response = await request.post('/graphql', {
    headers: { origin },
    data: {
      query: 'mutation($input: PatientAccessRequestInput!) { submitPatientAccessRequest(input: $input) { success } }',
      variables: {
        input: {
          ...person,
          dateOfBirth: '1990-04-12',
          phone: '555-010-2030',
          reasonForInterest: 'Help with anxiety and sleep.',
          servicesInterested: [],
          consentToContact: true,
        },
      },
    },
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as {
    errors?: unknown;
    data?: { submitPatientAccessRequest: { success: boolean } };
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(body.data?.submitPatientAccessRequest.success).toBe(true);
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

/** The first link in the outbox mail of `kind` sent to `email`. */
async function linkFromOutbox(page: Page, email: string, kind: string): Promise<string> {
  await page.goto('/admin/outbox');
  const mail = page
    .getByTestId('outbox-mail')
    .filter({ hasText: `To: ${email}` })
    .filter({ has: page.getByText(kind, { exact: true }) })
    .first();
  await mail.getByRole('button', { name: 'Show message' }).click();
  const href = await mail.getByRole('link').first().getAttribute('href');
  expect(href).toBeTruthy();
  return href ?? '';
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
  await expect(page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` })).toBeVisible();

  const link = await linkFromOutbox(page, person.email, 'Invitation');
  expect(link).toMatch(/\/invite#/);

  // The invitee, in a browser of their own.
  const context = await browser.newContext({ baseURL: baseURL ?? '' });
  const invitee = await context.newPage();
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
  const serious = async () =>
    (await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.html.slice(0, 160)}`));

  await page.goto('/invite#not-a-real-token');
  await expect(page.getByRole('heading', { name: 'This invitation link is not valid' })).toBeVisible();
  expect(await serious()).toEqual([]);

  await signInAs('admin');
  await page.goto('/admin/access-requests');
  await expect(page.getByRole('heading', { name: 'Access Requests', level: 1 })).toBeVisible();
  await expect(page.getByText('Loading access requests…')).toBeHidden();
  expect(await serious()).toEqual([]);

  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible();
  expect(await serious()).toEqual([]);
});
