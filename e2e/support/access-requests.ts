import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';

/** Letters no other run has used: names and addresses of people made up by one test. */
export function uniqueLetters(): string {
  return Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

export interface Requester {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * A visitor's patient access request, sent to the API as the public form would send it (with an Origin header,
 * as a browser does). `fields` adds to or replaces the form's other answers.
 */
export async function submitPatientRequest(
  request: APIRequestContext,
  origin: string,
  person: Requester,
  fields: Record<string, unknown> = {},
): Promise<void> {
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
          ...fields,
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

/** An administrator's page approves `person`'s request, with `provider` as the patient's primary provider. */
export async function approvePatientRequest(page: Page, person: Requester, provider = 'Maya Okafor'): Promise<void> {
  await page.goto('/admin/access-requests');
  await page.getByRole('button', { name: `Review: ${person.firstName} ${person.lastName}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Primary provider' }).click();
  await page.getByRole('option', { name: provider }).click();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('The request is approved and an invitation has been sent.')).toBeVisible();
}
