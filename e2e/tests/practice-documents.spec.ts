/**
 * The practice's documents (issue 28; decision 066): an administrator changes the telehealth consent, saving a new
 * version that asks patients to sign again; a patient, on a phone, reads it and signs it (typed name, "I agree")
 * and downloads the signed copy; the provider sees it signed in the patient's chart. Axe on each screen. The test
 * makes its own patient with a portal account (support/records.ts).
 */
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { createPortalPatient } from '../support/records.ts';
import { MAIN_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';

const ORIGIN = MAIN_SERVER.url;

test('an administrator saves a new version of the telehealth consent; a patient signs it on a phone and downloads it; the provider sees it signed', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(scaled(180_000));
  const patient = await createPortalPatient(ORIGIN);
  const marker = `Cameras stay on during group visits (${Date.now()}).`;

  // The administrator: a new version of the consent, asking every patient to sign again.
  await signInByApi(page, 'admin@demo.test', ORIGIN);
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Practice documents' }).click(within(30_000));
  await expect(page.getByRole('heading', { name: 'Practice documents', level: 1 })).toBeVisible();
  const consent = page.getByTestId('practice-document').filter({ hasText: 'Telehealth consent' });
  await expect(consent).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  const versionBefore = Number(/Version (\d+)/.exec((await consent.textContent()) ?? '')?.[1]);
  await consent.getByRole('button', { name: /^Edit: / }).click();
  const editor = page.getByRole('dialog', { name: 'Edit the document' });
  const body = editor.getByRole('textbox', { name: 'Text (English)' });
  await body.fill(`${await body.inputValue()}\n\n${marker}`);
  await editor.getByRole('radio', { name: /^Yes: the change matters/ }).check();
  expect(await seriousViolations(page)).toEqual([]);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);
  await expect(consent).toContainText(`Version ${versionBefore + 1},`);
  await consent.getByRole('button', { name: /^Versions: / }).click();
  const history = page.getByRole('dialog', { name: /^Versions of / });
  await expect(history.getByText(`Version ${versionBefore + 1}`, { exact: true })).toBeVisible();
  await expect(history.getByText('Asked patients to sign again').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await history.getByRole('button', { name: 'Close' }).click();

  // The patient, on a phone: the consent is to sign; they read the new text, sign it and download the copy.
  const context = await browser.newContext({ baseURL: baseURL ?? '', viewport: PHONE, acceptDownloads: true });
  const phone = await context.newPage();
  await signInByApi(phone, patient.email, ORIGIN, patient.password);
  await phone.goto('/dashboard');
  await phone.getByRole('link', { name: /My documents/ }).click(within(30_000));
  await expect(phone.getByRole('heading', { name: 'My documents', level: 1 })).toBeVisible();
  const item = phone.getByRole('listitem').filter({ hasText: 'Telehealth informed consent' });
  await expect(item.getByTestId('document-status')).toHaveText('To sign');
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  await item.getByRole('button', { name: /^Read and sign: / }).click();
  await expect(phone.getByText(marker)).toBeVisible();
  const sign = phone.getByRole('region', { name: 'Sign this document' });
  await sign.getByRole('button', { name: 'Sign' }).click();
  await expect(sign.getByText('Please type your full name')).toBeVisible();
  await sign.getByRole('textbox', { name: 'Your full name' }).fill(`${patient.firstName} ${patient.lastName}`);
  await sign.getByRole('checkbox', { name: /I agree to it/ }).check();
  expect(await seriousViolations(phone)).toEqual([]);
  await sign.getByRole('button', { name: 'Sign' }).click();
  const done = phone.getByRole('status').filter({ hasText: 'the document is signed' });
  await expect(done).toContainText(`as ${patient.firstName} ${patient.lastName} (version ${versionBefore + 1})`);
  await expectFitsPhone(phone);
  expect(await seriousViolations(phone)).toEqual([]);
  const [download] = await Promise.all([
    phone.waitForEvent('download'),
    done.getByRole('link', { name: 'Download the signed copy (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`signed-document-v${versionBefore + 1}.pdf`);
  const bytes = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await phone.getByRole('button', { name: 'Back to my documents' }).click();
  await expect(item.getByTestId('document-status')).toHaveText('Signed');
  await context.close();

  // The provider: the chart's Documents panel shows it signed, with the copy to download.
  const providerContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const chart = await providerContext.newPage();
  await signInByApi(chart, 'provider@demo.test', ORIGIN);
  await chart.goto(`/patients/${patient.id}`);
  const documents = chart.getByRole('region', { name: 'Documents', exact: true });
  const signed = documents.getByTestId('patient-document').filter({ hasText: 'Telehealth informed consent' });
  await expect(signed.getByTestId('document-status')).toHaveText('Signed', within(30_000));
  await expect(signed).toContainText(`as ${patient.firstName} ${patient.lastName}`);
  await expect(signed.getByRole('link', { name: /^Signed copy of / })).toBeVisible();
  expect(await seriousViolations(chart)).toEqual([]);
  await providerContext.close();
});
