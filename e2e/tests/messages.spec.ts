import type { Page } from '@playwright/test';
import { approvePatientRequest, submitPatientRequest, uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { mailTextFromOutbox } from '../support/outbox.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { expectFitsPhone } from '../support/phone.ts';

const ORIGIN = MAIN_SERVER.url;
const PASSWORD = 'Message-Pass-2026!';
/** The patient's primary provider: the second demo provider, so the first one's inbox stays as other specs left it. */
const PROVIDER = { email: 'provider2@demo.test', name: 'Daniel Reyes' };
/** A PNG's signature and a little more: the server decides the type from these bytes. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('e2e-image')]);

/** A patient of their own with a portal account: a request, approved with PROVIDER, its invitation accepted. */
async function newPatient(admin: Page) {
  const suffix = uniqueLetters();
  const person = { firstName: 'Lena', lastName: `Messages${suffix}`, email: `lena.${suffix}@example.test` };
  await submitPatientRequest(admin.request, ORIGIN, person);
  await signInByApi(admin, 'admin@demo.test', ORIGIN);
  await approvePatientRequest(admin, person, PROVIDER.name);
  const invitation = await mailTextFromOutbox(admin, person.email, 'Invitation');
  const token = /\/invite#([^\s]+)/.exec(invitation)?.[1] ?? '';
  expect(token).not.toBe('');
  const accepted = await admin.request.post('/graphql', {
    headers: { origin: ORIGIN },
    data: {
      query: 'mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }',
      variables: { t: token, p: PASSWORD },
    },
  });
  expect(((await accepted.json()) as { errors?: unknown }).errors).toBeUndefined();
  return person;
}

test('a patient on a phone writes to their provider with an attachment; the provider sees the count and replies live', async ({
  page,
  browser,
  baseURL,
}) => {
  // Three people over some forty steps: on two busy cores it passed 60 s (CI under load, every step green).
  test.slow();
  const person = await newPatient(page);

  const patientContext = await browser.newContext({ baseURL: baseURL ?? '', viewport: { width: 390, height: 844 } });
  const patient = await patientContext.newPage();
  await signInByApi(patient, person.email, ORIGIN, PASSWORD);
  const providerContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const provider = await providerContext.newPage();
  await signInByApi(provider, PROVIDER.email, ORIGIN);
  await provider.goto('/dashboard');
  await expect(provider.getByRole('link', { name: 'Messages', exact: true })).toBeVisible();

  // The patient writes from their phone, to their care team, with a file.
  await patient.goto('/messages');
  await expect(patient.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await patient.getByRole('button', { name: 'New conversation' }).click();
  const dialog = patient.getByRole('dialog', { name: 'New conversation' });
  await expect(dialog.getByText('Messages are not for emergencies.', { exact: false })).toContainText('988');
  await expect(dialog.getByText('The practice answers within 2 business days.')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'To' }).click();
  await patient.getByRole('option', { name: `${PROVIDER.name} (your care team)` }).click();
  await dialog.getByRole('textbox', { name: 'Subject' }).fill('Side effects');
  await dialog.getByRole('textbox', { name: 'Your message' }).fill('My hands shake since the new dose.');
  const fileInput = dialog.locator('input[type="file"]');
  // A text file named like an image is refused before it is sent anywhere.
  await fileInput.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await expect(dialog.getByRole('alert')).toHaveText('notes.png cannot be attached: choose a PDF, PNG or JPEG file.');
  await fileInput.setInputFiles({ name: 'hands.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByRole('button', { name: 'Remove hands.png' })).toBeVisible();
  await expect(dialog.getByRole('progressbar')).toHaveCount(0);
  expect(await seriousViolations(patient)).toEqual([]);
  await dialog.getByRole('button', { name: 'Send' }).click();

  // On the phone the thread replaces the list.
  const thread = patient.getByRole('region', { name: 'Side effects' });
  await expect(thread.getByText('My hands shake since the new dose.')).toBeVisible();
  await expect(thread.getByRole('link', { name: /Download hands\.png/ })).toBeVisible();
  await expect(thread.getByTestId('receipt')).toHaveText('Sent');
  await expectFitsPhone(patient);

  // The provider's header shows the unread count without a reload.
  const unreadLink = provider.getByRole('link', { name: 'Messages, 1 unread' });
  await expect(unreadLink).toBeVisible();
  await unreadLink.click();
  await provider.getByRole('button', { name: /Side effects/ }).click();
  const providerThread = provider.getByRole('region', { name: 'Side effects' });
  await expect(providerThread.getByText('My hands shake since the new dose.')).toBeVisible();
  const download = provider.waitForEvent('download');
  await providerThread.getByRole('link', { name: /Download hands\.png/ }).click();
  expect((await download).suggestedFilename()).toBe('hands.png');
  await expect(provider.getByRole('link', { name: 'Messages', exact: true })).toBeVisible();

  // The patient sees it was read, and the reply arrives live.
  await expect(thread.getByTestId('receipt')).toHaveText(/^Read /);
  await providerThread
    .getByRole('textbox', { name: 'Your message' })
    .fill('Please take it with food; we will talk Monday.');
  await providerThread.getByRole('button', { name: 'Send' }).click();
  await expect(thread.getByText('Please take it with food; we will talk Monday.')).toBeVisible();
  await expect(providerThread.getByTestId('receipt').last()).toHaveText(/^Read /);
  expect(await seriousViolations(patient)).toEqual([]);
  expect(await seriousViolations(provider)).toEqual([]);

  // The same screen in Spanish.
  await patient.evaluate(() => localStorage.setItem('telehealth.language', 'es'));
  await patient.reload();
  await expect(patient.getByRole('heading', { level: 1, name: 'Mensajes' })).toBeVisible();
  await expect(patient.getByText('Los mensajes no son para emergencias.', { exact: false })).toContainText('988');
  await expect(patient.getByText('La consulta responde en 2 días hábiles.')).toBeVisible();
  await expect(patient.getByRole('button', { name: 'Volver a las conversaciones' })).toBeVisible();
  expect(await seriousViolations(patient)).toEqual([]);

  await patientContext.close();
  await providerContext.close();
});
