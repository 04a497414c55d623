import { PASSWORD_RESET_MESSAGES } from '@telehealth/shared';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { followSignInLink } from '../../../testing/sign-in-link.ts';
import { ForgotPasswordScreen, ResetPasswordScreen } from './reset-password-screens.tsx';

const PASSWORD = 'Good-Pass-2026!';

function renderAt(path: string) {
  return renderRoutes(
    [
      { path: '/forgot-password', element: <ForgotPasswordScreen /> },
      { path: '/reset-password', element: <ResetPasswordScreen /> },
    ],
    path,
  );
}

function fillNewPassword(password: string) {
  fireEvent.change(screen.getByLabelText(/^Nueva contraseña/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/^Confirme la nueva contraseña/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Restablecer contraseña' }));
}

beforeEach(async () => {
  await i18n.changeLanguage('es');
});

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('password reset in Spanish', () => {
  it('asks for the code in Spanish and leads to the sign-in page with the address', async () => {
    const { calls } = mockGraphQL({
      RequestPasswordReset: () => ({
        requestPasswordReset: { success: true, message: PASSWORD_RESET_MESSAGES.requested },
      }),
      ResetPassword: () => ({
        resetPassword: { success: true, message: PASSWORD_RESET_MESSAGES.done, email: 'sam@example.test' },
      }),
    });
    renderAt('/forgot-password');
    expect(await screen.findByRole('heading', { name: '¿Olvidó su contraseña?' })).toBeVisible();
    fireEvent.change(screen.getByLabelText(/^Correo electrónico/), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByText('Ingrese una dirección de correo electrónico válida')).toBeVisible();

    fireEvent.change(screen.getByLabelText(/^Correo electrónico/), { target: { value: 'sam@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByText(/^Si existe una cuenta con este correo electrónico/)).toBeVisible();
    // The e-mail is asked for in the page's language.
    expect(calls.find((call) => call.operationName === 'RequestPasswordReset')?.variables['locale']).toBe('es');

    fireEvent.change(screen.getByLabelText(/^Código de 6 dígitos/), { target: { value: '12' } });
    fillNewPassword(PASSWORD);
    expect(await screen.findByText('Ingrese el código de 6 dígitos del correo electrónico')).toBeVisible();

    fireEvent.change(screen.getByLabelText(/^Código de 6 dígitos/), { target: { value: '123456' } });
    fillNewPassword(PASSWORD);
    expect(await screen.findByText('Su contraseña se cambió. Inicie sesión con su nueva contraseña.')).toBeVisible();
    expect(followSignInLink(screen.getByRole('link', { name: 'Ir a iniciar sesión' }))).toEqual({
      email: 'sam@example.test',
    });
  });

  it('leads from the e-mailed link to the sign-in page with the address the server answers', async () => {
    const { calls } = mockGraphQL({
      ResetPassword: () => ({
        resetPassword: { success: true, message: PASSWORD_RESET_MESSAGES.done, email: 'kim@example.test' },
      }),
    });
    renderAt('/reset-password#tok-123');
    expect(await screen.findByRole('heading', { name: 'Restablezca su contraseña' })).toBeVisible();
    fillNewPassword(PASSWORD);
    expect(followSignInLink(await screen.findByRole('link', { name: 'Ir a iniciar sesión' }))).toEqual({
      email: 'kim@example.test',
    });
    expect(calls.find((call) => call.operationName === 'ResetPassword')?.variables['token']).toBe('tok-123');
  });

  it('explains an expired link in Spanish', async () => {
    mockGraphQL({
      ResetPassword: () => ({
        errors: [
          {
            message: PASSWORD_RESET_MESSAGES.expired,
            extensions: { code: 'BAD_USER_INPUT', reason: 'expired' },
          },
        ],
      }),
    });
    renderAt('/reset-password#tok');
    expect(await screen.findByRole('heading', { name: 'Restablezca su contraseña' })).toBeVisible();
    fillNewPassword(PASSWORD);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Este código o enlace caducó. Solicite uno nuevo.');
    expect(screen.getByRole('link', { name: 'Solicitar un código nuevo' })).toHaveAttribute('href', '/forgot-password');
  });
});
