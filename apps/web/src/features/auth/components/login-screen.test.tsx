import { accountLockedMessage, MESSAGES } from '@telehealth/shared';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { emailFromLocationState, LoginScreen } from './login-screen.tsx';

function renderLogin() {
  return renderRoutes(
    [
      { path: '/', element: <p>Start</p> },
      {
        path: '/login',
        element: <LoginScreen practiceName="Test Practice" demoAccounts={null} sessionExpired={false} />,
      },
    ],
    '/',
  );
}

function signInResult(error: string) {
  return () => ({ signIn: { success: false, user: null, error, nextStep: null } });
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('emailFromLocationState', () => {
  it('takes only a well-formed address', () => {
    expect(emailFromLocationState({ email: ' New@Example.TEST ' })).toBe('new@example.test');
    expect(emailFromLocationState({ email: 'not an address' })).toBeNull();
    expect(emailFromLocationState({ email: 42 })).toBeNull();
    expect(emailFromLocationState(null)).toBeNull();
  });
});

describe('LoginScreen', () => {
  it('fills in the address passed in router state and puts the cursor in the password field', async () => {
    mockGraphQL({});
    const { router } = renderLogin();
    await act(() => router.navigate('/login', { state: { email: 'new@example.test' } }));
    const email = await screen.findByRole<HTMLInputElement>('textbox', { name: /^Email/ });
    expect(email.value).toBe('new@example.test');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByLabelText(/^Password/));
    });
    expect(router.state.location.search).toBe('');
  });

  it('says the shared schema’s messages and the server’s refusals in Spanish', async () => {
    let answer = signInResult(MESSAGES.invalidCredentials);
    mockGraphQL({ SignIn: () => answer() });
    await i18n.changeLanguage('es');
    const { router } = renderLogin();
    await act(() => router.navigate('/login'));

    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findByText('El correo electrónico es obligatorio')).toBeDefined();
    expect(screen.getByText('La contraseña es obligatoria')).toBeDefined();

    fireEvent.change(screen.getByLabelText(/^Correo electrónico/), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText(/^Contraseña/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findByText('Ingrese una dirección de correo electrónico válida')).toBeDefined();

    fireEvent.change(screen.getByLabelText(/^Correo electrónico/), { target: { value: 'someone@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => {
      expect(alert.textContent).toContain('Credenciales no válidas');
    });
    expect(alert.textContent).toContain('Error al iniciar sesión');

    answer = signInResult(accountLockedMessage(5 * 60_000));
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    await waitFor(() => {
      expect(screen.getByRole('alert').textContent).toContain(
        'El acceso a esta cuenta está bloqueado; inténtelo de nuevo en 5 minutos.',
      );
    });

    // Switching back shows the server's English words, exactly as sent.
    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    await waitFor(() => {
      expect(screen.getByRole('alert').textContent).toContain(accountLockedMessage(5 * 60_000));
    });
  });
});
