import { DEMO_PASSWORD } from '@telehealth/shared';
import { uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone } from '../support/phone.ts';
import { scaled, within } from '../support/budget.ts';
import { keepScreenshot } from '../support/screenshots.ts';

test('a provider breaks the glass for another provider’s patient under the banner; an administrator reviews it in Spanish on a phone', async ({
  page,
  browser,
  baseURL,
}) => {
  // Three people in three browsers; the first screen of each may take a while on a busy machine.
  test.setTimeout(scaled(180_000));
  const origin = new URL(baseURL ?? '').origin;
  const suffix = uniqueLetters();
  // The patient and a note belong to another provider (set up through the API).
  await signInByApi(page, 'provider2@demo.test', origin);
  const { createPatient } = await graphqlData<{ createPatient: { id: string } }>(
    page.request,
    origin,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    {
      input: {
        firstName: 'Erin',
        lastName: `Glass${suffix}`,
        email: `erin.${suffix}@example.net`,
        dateOfBirth: '1969-11-02',
      },
    },
  );
  const { createNote } = await graphqlData<{ createNote: { id: string } }>(
    page.request,
    origin,
    'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { title: `Safety plan ${suffix}`, content: 'Call the sister first.', patientId: createPatient.id } },
  );
  await graphqlData(page.request, origin, 'mutation ($input: SignNoteInput!) { signNote(input: $input) { id } }', {
    input: { id: createNote.id, password: DEMO_PASSWORD },
  });

  // The provider is refused the chart and offered emergency access, behind a reason.
  const providerContext = await browser.newContext({ baseURL: baseURL ?? '' });
  const provider = await providerContext.newPage();
  await signInByApi(provider, 'provider@demo.test', origin);
  await provider.goto(`/patients/${createPatient.id}`);
  await expect(provider.getByText('Patient not found')).toBeVisible(within(45_000));
  await provider.getByRole('button', { name: 'Emergency access' }).click();
  const dialog = provider.getByRole('dialog', { name: 'Emergency access' });
  await dialog.getByRole('button', { name: 'Open the record' }).click();
  await expect(dialog.getByText('Please give the reason for the emergency access')).toBeVisible();
  await dialog
    .getByRole('textbox', { name: 'Reason' })
    .fill('Patient called in acute crisis; the primary provider cannot be reached');
  await dialog.getByRole('button', { name: 'Open the record' }).click();
  const banner = provider.getByTestId('emergency-access-banner');
  await expect(banner).toContainText(/Emergency access — ends at \d\d:\d\d — every action is recorded/);
  await expect(provider.getByRole('heading', { level: 1, name: `Erin Glass${suffix}` })).toBeVisible();
  await expect(provider.getByText(`Safety plan ${suffix}`)).toBeVisible();
  expect(await seriousViolations(provider)).toEqual([]);
  await providerContext.close();

  // The administrator, on a phone in Spanish: the console's alert, then the review.
  const adminContext = await browser.newContext({ baseURL: baseURL ?? '', viewport: { width: 390, height: 844 } });
  const admin = await adminContext.newPage();
  await admin.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await signInByApi(admin, 'admin@demo.test', origin);
  await admin.goto('/admin');
  await expect(admin.getByTestId('emergency-access-alert')).toContainText(
    /Accesos de emergencia pendientes de revisión \(\d+\)/,
    within(45_000),
  );
  await admin.getByRole('link', { name: 'Revisar los accesos de emergencia' }).click();
  await expect(admin).toHaveURL(/\/admin\/security\?tab=emergency$/);
  const card = admin.getByRole('listitem').filter({ hasText: `Erin Glass${suffix}` });
  await expect(card.getByText('Patient called in acute crisis; the primary provider cannot be reached')).toBeVisible();
  await card.getByRole('button', { name: 'Mostrar qué se abrió' }).click();
  await expect(card.getByText(/Abrió la ficha/)).toBeVisible();
  await expectFitsPhone(admin);
  expect(await seriousViolations(admin)).toEqual([]);
  await card.getByRole('button', { name: 'Registrar la revisión' }).click();
  await expect(card.getByText('Indique si el acceso fue apropiado')).toBeVisible();
  await card.getByRole('radio', { name: 'Apropiado', exact: true }).check();
  await card.getByRole('button', { name: 'Registrar la revisión' }).click();
  // Reviewed, it leaves the awaiting list; under All it shows its outcome.
  await expect(card).toHaveCount(0);
  await admin.getByText('Todos', { exact: true }).click();
  await expect(card.getByText('Apropiado', { exact: true })).toBeVisible();
  await keepScreenshot(admin, 'test-results/emergency-access-review-390.png');
  await adminContext.close();
});
