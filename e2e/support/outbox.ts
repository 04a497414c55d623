import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';

/**
 * The newest mail of `kind` ("Invitation", "Password reset", …) to `email` in /admin/outbox, opened. The page
 * must be signed in as an administrator; the outbox lists the newest first.
 */
export async function openOutboxMail(page: Page, email: string, kind: string): Promise<Locator> {
  await page.goto('/admin/outbox');
  const mail = page
    .getByTestId('outbox-mail')
    .filter({ hasText: `To: ${email}` })
    .filter({ has: page.getByText(kind, { exact: true }) })
    .first();
  await mail.getByRole('button', { name: 'Show message' }).click();
  return mail;
}

/** The first link of that mail (the invitation or reset link). */
export async function linkFromOutbox(page: Page, email: string, kind: string): Promise<string> {
  const href = await (await openOutboxMail(page, email, kind)).getByRole('link').first().getAttribute('href');
  expect(href).toBeTruthy();
  return href ?? '';
}

/** The plain text of that mail. */
export async function mailTextFromOutbox(page: Page, email: string, kind: string): Promise<string> {
  return (await (await openOutboxMail(page, email, kind)).locator('pre').innerText()).trim();
}
