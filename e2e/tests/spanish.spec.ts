import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { approvePatientRequest, submitPatientRequest, uniqueLetters } from '../support/access-requests.ts';
import { seriousViolations } from '../support/axe.ts';
import { linkFromOutbox } from '../support/outbox.ts';

/** Chooses Spanish with the public site's language switcher and waits until the page speaks it. */
async function chooseSpanish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
}

test('the sign-in and patient request forms say their problems in Spanish, the browser’s and the server’s', async ({
  page,
}) => {
  await page.goto('/login');
  await chooseSpanish(page);

  // Sign-in: the shared schema's messages, then the server's refusal.
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(page.getByText('El correo electrónico es obligatorio')).toBeVisible();
  await expect(page.getByText('La contraseña es obligatoria')).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(`nobody.${uniqueLetters()}@example.test`);
  await page.getByRole('textbox', { name: 'Contraseña' }).fill('Wrong-Pass-2026!');
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText('Error al iniciar sesión');
  await expect(refusal).toContainText('Credenciales no válidas');

  // The patient form: the browser's own check.
  await page.getByRole('button', { name: 'Soy paciente' }).click();
  await expect(page.getByRole('heading', { name: 'Solicitar acceso como paciente' })).toBeVisible();
  await page
    .getByLabel(/^Nombre/)
    .first()
    .fill('Ana 2');
  await page.getByLabel(/^Fecha de nacimiento/).fill('2999-01-01');
  await page
    .getByLabel(/^Teléfono/)
    .first()
    .fill('123');
  await page.getByLabel(/^Código postal/).fill('1234');
  await page.getByLabel(/^Acepto que la práctica me contacte/).check();
  await page.getByRole('button', { name: 'Enviar solicitud de paciente' }).click();
  await expect(
    page.getByText('El campo «Nombre» solo puede contener letras, espacios, guiones y apóstrofos'),
  ).toBeVisible();
  await expect(page.getByText('El campo «Apellido» es obligatorio')).toBeVisible();
  await expect(page.getByText('La fecha de nacimiento debe ser anterior a hoy')).toBeVisible();
  await expect(page.getByText('El número de teléfono debe tener entre 10 y 15 dígitos')).toBeVisible();
  await expect(page.getByText('Ingrese un código postal válido')).toBeVisible();
  await expect(page.getByText('El campo «Motivo de su interés» es obligatorio')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A valid form whose address the server refuses (changed on its way, as a hand-made request would be):
  // the server's English message arrives in extensions.fieldErrors and is shown in Spanish at the field.
  await page.route('**/graphql', async (route) => {
    const body = route.request().postDataJSON() as { query?: string; variables?: { input?: Record<string, unknown> } };
    if (!body.query?.includes('submitPatientAccessRequest') || !body.variables?.input) {
      await route.fallback();
      return;
    }
    body.variables.input['email'] = 'not-an-address';
    await route.fallback({ postData: JSON.stringify(body) });
  });
  await page
    .getByLabel(/^Nombre/)
    .first()
    .fill('Ana');
  await page.getByLabel(/^Apellido/).fill('Reyes');
  await page.getByLabel(/^Fecha de nacimiento/).fill('1990-04-12');
  await page
    .getByLabel(/^Teléfono/)
    .first()
    .fill('555-010-2030');
  await page.getByLabel(/^Correo electrónico/).fill(`ana.${uniqueLetters()}@example.test`);
  await page.getByLabel(/^Código postal/).fill('02139');
  await page.getByLabel(/^Motivo de su interés/).fill('Ansiedad.');
  await page.getByRole('button', { name: 'Enviar solicitud de paciente' }).click();
  await expect(page.getByText('Ingrese una dirección de correo electrónico válida')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Corrija el campo señalado.');
  await expect(page.getByLabel(/^Correo electrónico/)).toBeFocused();
});

test('the account pages are in Spanish, with the language switcher, remembered across pages', async ({ page }) => {
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { name: 'Forgot password', level: 1 })).toBeVisible();
  await chooseSpanish(page);
  await expect(page.getByRole('heading', { name: '¿Olvidó su contraseña?', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('nope');
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page.getByText('Ingrese una dirección de correo electrónico válida')).toBeVisible();

  // The choice is remembered: the reset link's page opens in Spanish.
  await page.goto('/reset-password#not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Restablezca su contraseña', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
  const newPassword = page.getByRole('textbox', { name: 'Nueva contraseña', exact: true });
  await newPassword.fill('short');
  await page.getByRole('button', { name: 'Restablecer contraseña' }).click();
  await expect(newPassword).toHaveAccessibleDescription(/La contraseña debe tener al menos 8 caracteres/);
  expect(await seriousViolations(page)).toEqual([]);

  // The server refuses the token; its answer is said in Spanish.
  await newPassword.fill('Second-Pass-2026?');
  await page.getByRole('textbox', { name: 'Confirme la nueva contraseña', exact: true }).fill('Second-Pass-2026?');
  await page.getByRole('button', { name: 'Restablecer contraseña' }).click();
  await expect(page.getByRole('alert')).toContainText('Este código o enlace no es válido. Solicite uno nuevo.');
  await expect(page.getByRole('link', { name: 'Solicitar un código nuevo' })).toBeVisible();

  await page.goto('/invite#not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Este enlace de invitación no es válido', level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('after setting a password from an invitation, sign-in knows the address and asks for the password', async ({
  page,
  signInAs,
  baseURL,
  browser,
}) => {
  const origin = new URL(baseURL ?? '').origin;
  const letters = uniqueLetters();
  const person = { firstName: 'Lucía', lastName: `Prefill${letters}`, email: `lucia.${letters}@example.test` };
  await submitPatientRequest(page.request, origin, person, {
    dateOfBirth: '1988-02-03',
    phone: '555-010-4060',
    reasonForInterest: 'Terapia.',
    languagePreference: 'spanish',
  });

  await signInAs('admin');
  await approvePatientRequest(page, person);
  const link = await linkFromOutbox(page, person.email, 'Invitation');
  expect(link).toMatch(/\/invite#/);

  const context = await browser.newContext({ baseURL: baseURL ?? '' });
  const invitee = await context.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Set your password', level: 1 })).toBeVisible();
  await chooseSpanish(invitee);
  await expect(invitee.getByRole('heading', { name: 'Cree su contraseña', level: 1 })).toBeVisible();
  await invitee.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('Invited-Pass-2026!');
  await invitee.getByRole('textbox', { name: 'Confirme la nueva contraseña', exact: true }).fill('Invited-Pass-2026!');
  await invitee.getByRole('button', { name: 'Crear contraseña' }).click();
  await expect(invitee.getByRole('heading', { name: 'Su contraseña está lista', level: 1 })).toBeVisible();
  await invitee.getByRole('link', { name: 'Ir a iniciar sesión' }).click();

  // The address travels in router state: never in the URL.
  await expect(invitee).toHaveURL(/\/login$/);
  await expect(invitee.getByRole('textbox', { name: 'Correo electrónico' })).toHaveValue(person.email);
  const password = invitee.getByRole('textbox', { name: 'Contraseña', exact: true });
  await expect(password).toBeFocused();
  await invitee.keyboard.type('Invited-Pass-2026!');
  await invitee.keyboard.press('Enter');
  await expect(invitee).toHaveURL(/\/dashboard$/);
  await context.close();
});
