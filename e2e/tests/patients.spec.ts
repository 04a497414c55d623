import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { deleteConfirmation, PATIENT_MESSAGES, type Role } from '@telehealth/shared';
import { demoAccount, expect, signInByApi, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';
import { createPatientRecord } from '../support/records.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { scaled, within } from '../support/budget.ts';

// Every test makes its own patients with names no other test uses, so tests run in any order and in
// parallel against the one demo server, whose ~40 demo patients are spread over provider@ and provider2@.

/** A name the name rules accept (letters only) and no other test uses. */
function uniqueName(prefix: string): string {
  const letters = Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `${prefix}${letters}`;
}

interface NewPatient {
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
  phone?: string;
}

function newPatient(lastName: string, firstName = 'Robin'): NewPatient {
  return {
    firstName,
    lastName,
    email: `${firstName}.${lastName}.${randomBytes(3).toString('hex')}@example.test`.toLowerCase(),
    dateOfBirth: '1984-06-02',
    phone: '(503) 555-0199',
  };
}

interface GraphQLBody<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** One GraphQL call with the cookies of `request` (a page's or a context's), sent with the app's origin. */
async function graphql<T>(request: APIRequestContext, baseURL: string, query: string, variables = {}): Promise<T> {
  const response = await request.post('/graphql', {
    headers: { origin: new URL(baseURL).origin },
    data: { query, variables },
  });
  expect(response.ok(), `GraphQL answered HTTP ${response.status()}`).toBe(true);
  const body = (await response.json()) as GraphQLBody<T>;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

const CREATE_PATIENT = 'mutation($input: CreatePatientInput!) { createPatient(input: $input) { id } }';
const COUNT_PATIENTS = 'query($filter: PatientFilterInput) { countPatients(filter: $filter) }';

/** A second signed-in browser context, for a person other than the one the test's page belongs to. */
async function signedInContext(browser: Browser, baseURL: string, role: Role | 'provider2') {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = role === 'provider2' ? 'provider2@demo.test' : demoAccount(role).email;
  await signInByApi(page, email, new URL(baseURL).origin);
  return { context, page };
}

async function createPatientByApi(request: APIRequestContext, baseURL: string, input: NewPatient): Promise<string> {
  const data = await graphql<{ createPatient: { id: string } }>(request, baseURL, CREATE_PATIENT, { input });
  return data.createPatient.id;
}

/**
 * Types a search. The list follows it once the 300 ms debounce and the server's answer are in, whatever the first
 * page was doing (patient-list-screen.test.tsx), so a test then waits for the filtered state it expects; the box
 * is checked to hold the text, so that a lost search would show here rather than as a list that never filters.
 */
async function searchPatients(page: Page, text: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search patients' });
  await box.fill(text);
  await expect(box).toHaveValue(text);
}

function card(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true });
}

test('a provider sees only their own patients and never reaches another provider’s patient', async ({
  page,
  browser,
  baseURL,
  signInAs,
}) => {
  const base = baseURL ?? '';
  const lastName = uniqueName('Elsewhere');
  const other = await signedInContext(browser, base, 'provider2');
  const otherId = await createPatientByApi(other.page.request, base, newPatient(lastName, 'Morgan'));
  await other.context.close();

  await signInAs('provider');
  // A record of this provider's own, made for this test.
  const mine = await createPatientRecord(page.request, base, { lastName: uniqueName('Mine') });
  await page.goto('/patients');
  await searchPatients(page, mine.name);
  await expect(card(page, mine.name)).toBeVisible();
  await expect(page.getByText('Showing 1 of 1 patients')).toBeVisible();

  await searchPatients(page, lastName);
  await expect(page.getByRole('heading', { name: 'No patients found' })).toBeVisible();
  await expect(page.getByText('Showing 0 of 0 patients')).toBeVisible();

  // Not by its address either: the same answer as for a record that does not exist.
  await page.goto(`/patients/${otherId}/edit`);
  await expect(page.getByRole('heading', { name: PATIENT_MESSAGES.notFound })).toBeVisible();
  await page.getByRole('link', { name: 'Back to patients' }).click();
  await expect(page).toHaveURL(/\/patients$/);

  // The administrator sees it: it exists, it is just not this provider's.
  const admin = await signedInContext(browser, base, 'admin');
  await admin.page.goto('/patients');
  await searchPatients(admin.page, lastName);
  await expect(card(admin.page, `Morgan ${lastName}`)).toBeVisible();
  await expect(card(admin.page, `Morgan ${lastName}`).getByText('Provider: Daniel Reyes')).toBeVisible();
  await admin.context.close();
});

test('a provider adds a patient through the full form: messages at the fields first, then success, then search finds it', async ({
  page,
  signInAs,
}) => {
  const lastName = uniqueName('Registered');
  const name = `Avery ${lastName}`;
  await signInAs('provider');
  await page.goto('/patients');
  await page.getByRole('link', { name: 'Add New Patient' }).click();
  await expect(page).toHaveURL(/\/patients\/new$/);
  await expect(page.getByRole('heading', { name: 'New Patient Registration' })).toBeVisible();
  // Every section of the record is on the form, with the crisis lines beside it.
  for (const section of ['Personal information', 'Address', 'Emergency contact', 'Insurance', 'Clinical information']) {
    await expect(page.getByRole('heading', { name: section })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: /crisis line, 988/ })).toBeVisible();
  // Providers own what they add: there is no provider to choose.
  await expect(page.getByRole('combobox', { name: 'Primary provider' })).toHaveCount(0);

  const firstName = page.getByRole('textbox', { name: 'First name' });
  const lastNameInput = page.getByRole('textbox', { name: 'Last name' });
  const email = page.getByRole('textbox', { name: 'Email' });
  const phone = page.getByRole('textbox', { name: 'Phone', exact: true });
  const dateOfBirth = page.getByLabel(/^Date of birth/);
  const zipCode = page.getByRole('textbox', { name: 'ZIP code' });

  // Wrong input first.
  await firstName.fill('A');
  await email.fill('avery.example.test');
  await phone.fill('555-01');
  await zipCode.fill('9720');
  await page.getByRole('button', { name: 'Create Patient' }).click();

  await expect(firstName).toHaveAttribute('aria-invalid', 'true');
  await expect(firstName).toHaveAccessibleDescription('First name must be at least 2 characters long');
  await expect(lastNameInput).toHaveAccessibleDescription('Last name is required');
  await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
  await expect(phone).toHaveAccessibleDescription(/Phone number must be 10-15 digits long/);
  await expect(dateOfBirth).toHaveAccessibleDescription('Date of birth is required');
  await expect(zipCode).toHaveAccessibleDescription(/Please enter a valid ZIP code/);
  await expect(page.getByRole('alert').filter({ hasText: '6 fields need your attention' })).toBeVisible();
  await expect(firstName).toBeFocused();
  await expect(page).toHaveURL(/\/patients\/new$/);

  // Then right. The save is held back a moment to see the button say so.
  await firstName.fill('Avery');
  await expect(firstName).not.toHaveAttribute('aria-invalid', 'true');
  await lastNameInput.fill(lastName);
  await email.fill(`avery.${lastName}@example.test`);
  await phone.fill('(503) 555-0123');
  await dateOfBirth.fill('1991-11-03');
  await zipCode.fill('97205');
  await page.getByRole('textbox', { name: 'City' }).fill('Portland');
  await page.getByRole('textbox', { name: 'Allergies' }).fill('Penicillin');
  await expect(page.getByText('10 / 1000 characters')).toBeVisible();

  await page.route('**/graphql', async (route) => {
    if (route.request().postData()?.includes('CreatePatient')) await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Create Patient' }).click();
  await expect(page.getByRole('button', { name: 'Creating...' })).toBeDisabled();

  await expect(page).toHaveURL(/\/patients$/);
  await expect(page.getByText(`${name} was registered as a patient.`)).toBeVisible();
  await page.unroute('**/graphql');

  await searchPatients(page, lastName.toUpperCase());
  await expect(card(page, name)).toBeVisible();
  await expect(page.getByText('Showing 1 of 1 patients')).toBeVisible();
  await expect(card(page, name).getByText('(503) 555-0123')).toBeVisible();
  await expect(card(page, name).getByText('Nov 3, 1991')).toBeVisible();
  await expect(card(page, name).getByText('Active', { exact: true })).toBeVisible();

  // Found by email too.
  await searchPatients(page, `avery.${lastName}@example`);
  await expect(card(page, name)).toBeVisible();

  // The details hold what was entered in the other sections.
  await card(page, name)
    .getByRole('button', { name: `Details of ${name}` })
    .click();
  const details = page.getByRole('dialog', { name });
  await expect(details.getByText('Penicillin')).toBeVisible();
  await expect(details.getByText(/Portland, 97205/)).toBeVisible();
  await expect(details.getByText('Patient ID')).toBeVisible();
  await details.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(details).toBeHidden();
});

test('a provider edits a patient and the changes are saved', async ({ page, baseURL, signInAs }) => {
  const lastName = uniqueName('Edited');
  const name = `Sasha ${lastName}`;
  await signInAs('provider');
  const id = await createPatientByApi(page.request, baseURL ?? '', newPatient(lastName, 'Sasha'));

  await page.goto('/patients');
  await searchPatients(page, lastName);
  await card(page, name)
    .getByRole('link', { name: `Edit ${name}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/patients/${id}/edit$`));
  await expect(page.getByRole('heading', { name: 'Edit Patient' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Sasha');

  // A wrong value is refused at its field; then a right one is saved.
  const phone = page.getByRole('textbox', { name: 'Phone', exact: true });
  await phone.fill('call me');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(phone).toHaveAccessibleDescription(/Please enter a valid phone number/);

  await phone.fill('(971) 555-0777');
  await page.getByRole('textbox', { name: 'City' }).fill('Eugene');
  await page.getByRole('switch', { name: 'Active patient' }).uncheck();
  await page.getByRole('button', { name: 'Save Changes' }).click();

  await expect(page).toHaveURL(/\/patients$/);
  await expect(page.getByText(`Changes to ${name} were saved.`)).toBeVisible();
  await searchPatients(page, lastName);
  await expect(card(page, name).getByText('(971) 555-0777')).toBeVisible();
  await expect(card(page, name).getByText('Inactive', { exact: true })).toBeVisible();

  // The inactive filter finds it; the active one does not.
  const statusOption = (label: string) => page.locator('label').filter({ hasText: new RegExp(`^${label}$`) });
  await statusOption('Active').click();
  await expect(page.getByRole('heading', { name: 'No patients found' })).toBeVisible();
  await statusOption('Inactive').click();
  await expect(card(page, name)).toBeVisible();

  // Read back from the server, not from the browser's cache.
  await page.goto(`/patients/${id}/edit`);
  await expect(page.getByRole('textbox', { name: 'City' })).toHaveValue('Eugene');
  await expect(page.getByRole('switch', { name: 'Active patient' })).not.toBeChecked();
});

test('an administrator assigns a primary provider, and deletes with the confirmation: the patient disappears everywhere', async ({
  page,
  browser,
  baseURL,
  signInAs,
}) => {
  const base = baseURL ?? '';
  const lastName = uniqueName('Removed');
  const name = `Quinn ${lastName}`;
  await signInAs('admin');

  // Registered through the form, assigned to Maya Okafor.
  await page.goto('/patients/new');
  await page.getByRole('textbox', { name: 'First name' }).fill('Quinn');
  await page.getByRole('textbox', { name: 'Last name' }).fill(lastName);
  await page.getByRole('textbox', { name: 'Email' }).fill(`quinn.${lastName}@example.test`);
  await page.getByLabel(/^Date of birth/).fill('1975-01-20');
  await page.getByRole('combobox', { name: 'Primary provider' }).click();
  await page.getByRole('option', { name: /^Maya Okafor/ }).click();
  await page.getByRole('button', { name: 'Create Patient' }).click();
  await expect(page).toHaveURL(/\/patients$/);

  await searchPatients(page, lastName);
  await expect(card(page, name).getByText('Provider: Maya Okafor')).toBeVisible();
  const id = (
    await graphql<{ listPatients: { items: { id: string }[] } }>(
      page.request,
      base,
      'query($f: PatientFilterInput) { listPatients(filter: $f) { items { id } } }',
      { f: { search: lastName } },
    )
  ).listPatients.items[0]?.id;
  expect(id).toBeTruthy();

  // The owning provider sees it.
  const provider = await signedInContext(browser, base, 'provider');
  const countFor = (request: APIRequestContext) =>
    graphql<{ countPatients: number }>(request, base, COUNT_PATIENTS, { filter: { search: lastName } });
  expect((await countFor(provider.page.request)).countPatients).toBe(1);

  // Cancel keeps it; confirming deletes it.
  await card(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete patient' });
  await expect(dialog.getByText(deleteConfirmation('Quinn', lastName), { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, name)).toBeVisible();

  await card(page, name)
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  await dialog.getByRole('button', { name: 'Delete Patient' }).click();
  // A notification, not a browser alert (a browser dialog would fail the test: none is expected).
  await expect(page.getByRole('alert').filter({ hasText: PATIENT_MESSAGES.deleted })).toBeVisible();
  await expect(card(page, name)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No patients found' })).toBeVisible();

  // Gone from every list, every search and every address, for everyone.
  await page.reload();
  await searchPatients(page, lastName);
  await expect(page.getByRole('heading', { name: 'No patients found' })).toBeVisible();
  await searchPatients(page, `quinn.${lastName}`);
  await expect(page.getByRole('heading', { name: 'No patients found' })).toBeVisible();
  await page.goto(`/patients/${id}/edit`);
  await expect(page.getByRole('heading', { name: PATIENT_MESSAGES.notFound })).toBeVisible();

  expect((await countFor(provider.page.request)).countPatients).toBe(0);
  await provider.page.goto(`/patients/${id}/edit`);
  await expect(provider.page.getByRole('heading', { name: PATIENT_MESSAGES.notFound })).toBeVisible();
  await provider.context.close();
});

test('a patient account meets Access Denied on /patients', async ({ page, signInAs }) => {
  await signInAs('patient');
  await page.goto('/patients');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText(PATIENT_MESSAGES.accessDeniedPage)).toBeVisible();
  await expect(page.getByRole('searchbox')).toHaveCount(0);

  await page.getByRole('link', { name: 'Return to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/patients/new');
  await expect(page.getByText('You do not have permission to create patients')).toBeVisible();
});

test('the list pages with nextToken: scrolling near the end, or "Load more patients", loads the next page', async ({
  page,
  baseURL,
  signInAs,
}) => {
  test.setTimeout(scaled(120_000));
  const base = baseURL ?? '';
  const lastName = uniqueName('Paged');
  await signInAs('admin');

  // A full page (100) and a bit.
  const TOTAL = 110;
  const firstNames = Array.from(
    { length: TOTAL },
    (_, index) => `Pat${String.fromCharCode(97 + (index % 26))}${uniqueName('')}`,
  );
  for (let start = 0; start < TOTAL; start += 15) {
    await Promise.all(
      firstNames
        .slice(start, start + 15)
        .map((firstName) => createPatientByApi(page.request, base, newPatient(lastName, firstName))),
    );
  }

  // Scrolling to the end of the list loads the next page by itself.
  await page.goto('/patients');
  await searchPatients(page, lastName);
  await expect(page.getByText(`Showing 100 of ${TOTAL} patients`)).toBeVisible();
  await page.getByRole('button', { name: 'Load more patients' }).scrollIntoViewIfNeeded();
  await expect(page.getByText(`Showing ${TOTAL} of ${TOTAL} patients`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load more patients' })).toHaveCount(0);

  // The button does the same on request. Without IntersectionObserver (removed here, so that scrolling to
  // the button cannot load the page before the click does), it is the only way, and it is enough.
  // A fresh tab, with the first one closed: a second, hidden tab of the same context had its timers (the
  // 300 ms search debounce) held back for seconds under CI load.
  const context = page.context();
  await page.close();
  const buttonPage = await context.newPage();
  await buttonPage.addInitScript(() => {
    Reflect.deleteProperty(globalThis, 'IntersectionObserver');
  });
  await buttonPage.goto('/patients');
  await searchPatients(buttonPage, lastName);
  await expect(buttonPage.getByText(`Showing 100 of ${TOTAL} patients`)).toBeVisible();
  const loadMore = buttonPage.getByRole('button', { name: 'Load more patients' });
  await loadMore.click();
  await expect(buttonPage.getByText(`Showing ${TOTAL} of ${TOTAL} patients`)).toBeVisible();
  await expect(loadMore).toHaveCount(0);
  await expect(buttonPage.getByText(`All ${TOTAL} patients are shown.`)).toBeVisible();
  await expect(buttonPage.getByRole('article')).toHaveCount(TOTAL);
});

test('a patient’s name in the list is a link to the chart, by pointer and by keyboard, in Spanish on a phone', async ({
  page,
  baseURL,
  signInAs,
}) => {
  // Three visits to the list and axe, on a shared machine.
  test.slow();
  const base = baseURL ?? '';
  const lastName = uniqueName('Linked');
  await signInAs('provider');
  const id = await createPatientByApi(page.request, base, newPatient(lastName, 'Sasha'));
  const name = `Sasha ${lastName}`;

  // A pointer: the name itself.
  await page.goto('/patients');
  await searchPatients(page, lastName);
  const link = card(page, name).getByRole('link', { name, exact: true });
  await expect(link).toHaveAttribute('href', `/patients/${id}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/patients/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // The keyboard: from the search field, Tab reaches the name (the first thing in the card), and Enter opens it.
  await page.goBack();
  await searchPatients(page, lastName);
  await expect(page.getByText('Showing 1 of 1 patients')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search patients' }).focus();
  const keyboardLink = card(page, name).getByRole('link', { name, exact: true });
  await expect(async () => {
    await page.keyboard.press('Tab');
    await expect(keyboardLink).toBeFocused({ timeout: 100 });
  }).toPass(within(10_000));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/patients/${id}$`));

  // Spanish on a phone: the same link, and the details a button of their own.
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await page.goto('/patients');
  await page.getByRole('searchbox', { name: 'Buscar pacientes' }).fill(lastName);
  // The search has answered (the unfiltered first page may already show the card, and dims while the search runs).
  await expect(page.getByText('Se muestran 1 de 1 pacientes')).toBeVisible();
  await expect(card(page, name).getByRole('button', { name: `Detalles de ${name}` })).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await card(page, name).getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/patients/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
});

test('/patients, its dialogs and /patients/new have no serious or critical accessibility violations', async ({
  page,
  browser,
  baseURL,
  signInAs,
}) => {
  // Six scans of a page full of cards: slow on a busy two-core machine.
  test.setTimeout(scaled(120_000));
  // The list as a provider sees it (their own patients, edit only).
  const provider = await signedInContext(browser, baseURL ?? '', 'provider');
  await provider.page.goto('/patients');
  await expect(provider.page.getByText(/Showing \d+ of \d+ patients/)).toBeVisible();
  await expect(provider.page.getByRole('article').first()).toBeVisible();
  expect(await seriousViolations(provider.page)).toEqual([]);
  await provider.context.close();

  // As an administrator (delete and primary provider too), narrowed to one patient to keep the scan short.
  await signInAs('admin');
  const scanned = await createPatientRecord(page.request, baseURL ?? '', { lastName: uniqueName('Scanned') });
  await page.goto('/patients');
  await searchPatients(page, scanned.name);
  await expect(page.getByText('Showing 1 of 1 patients')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: `Details of ${scanned.name}` }).click();
  await expect(page.getByRole('dialog').getByText('Clinical information')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByRole('button', { name: `Delete ${scanned.name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Delete patient' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.goto('/patients/new');
  await expect(page.getByRole('heading', { name: 'New Patient Registration' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Primary provider' })).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);

  // With every message shown.
  await page.getByRole('button', { name: 'Create Patient' }).click();
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveAttribute('aria-invalid', 'true');
  expect(await seriousViolations(page)).toEqual([]);
});
