import { accountLockedMessage, MESSAGES, TWO_FACTOR_MESSAGES, type CurrentUser } from '@telehealth/shared';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { LoginPage, type LoginPageProps } from './login-page.tsx';

const patient: CurrentUser = {
  userId: 'u1',
  email: 'patient@demo.test',
  name: 'Pat Patient',
  role: 'patient',
  source: 'database',
};

function renderLogin(props: Partial<LoginPageProps> = {}) {
  const onSignedIn = vi.fn();
  render(
    <LoginPage
      practiceName="Test Practice"
      demoAccounts={null}
      sessionEnded={null}
      knownEmail={null}
      onSignedIn={onSignedIn}
      {...props}
    />,
  );
  return { onSignedIn };
}

const CODE_STEP = 'CONFIRM_SIGN_IN_WITH_TOTP_CODE';
const SETUP_STEP = 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP';

/** Types an address and a password and presses Sign In. */
function submitPassword() {
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'patient@demo.test' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'DemoPass-2026!' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

/** A refused sign-in as the server answers it: its English `error`, and the message's id when it names one. */
function signInResult(
  error: string,
  errorMessage: { id: string; params: { name: string; value: string }[] } | null = null,
) {
  return () => ({ signIn: { success: false, user: null, error, errorMessage, nextStep: null } });
}

// The request forms load on demand (Mantine and the form, several megabytes of source for a test worker to
// transform). Loading that module here, once, keeps a busy machine's transform time out of the test's wait for
// the form; the test still goes through the page's own on-demand import.
beforeAll(async () => {
  await import('./access-request-host.tsx');
}, 60_000);

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('LoginPage', () => {
  it('fills in the address it was handed and puts the cursor in the password field', async () => {
    mockGraphQL({});
    renderLogin({ knownEmail: 'new@example.test' });
    const email = screen.getByRole<HTMLInputElement>('textbox', { name: /^Email/ });
    expect(email.value).toBe('new@example.test');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByLabelText(/^Password/));
    });
  });

  it('signs in with the checked address and goes on only when the server says DONE', async () => {
    let answer: () => unknown = signInResult(MESSAGES.invalidCredentials);
    const { calls } = mockGraphQL({ SignIn: () => answer() });
    const { onSignedIn } = renderLogin();
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: '  Patient@Demo.TEST ' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'DemoPass-2026!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.invalidCredentials);
    expect(calls[0]?.variables).toEqual({ email: 'patient@demo.test', password: 'DemoPass-2026!' });
    expect(onSignedIn).not.toHaveBeenCalled();

    answer = () => ({ signIn: { success: true, user: patient, error: null, nextStep: 'DONE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => {
      expect(onSignedIn).toHaveBeenCalledTimes(1);
    });
    // The page is on its way to the app: the button stays busy instead of inviting a second sign-in.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /Signing in/ }).disabled).toBe(true);
  });

  it('says when the account needs a sign-in step this page does not offer yet', async () => {
    mockGraphQL({
      SignIn: () => ({
        signIn: {
          success: false,
          user: null,
          error: MESSAGES.additionalStepsRequired,
          nextStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED',
        },
      }),
    });
    const { onSignedIn } = renderLogin();
    submitPassword();
    expect((await screen.findByRole('alert')).textContent).toContain('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('asks for the code of the authenticator app, says a wrong one and goes on with the right one', async () => {
    let answer: unknown = { success: false, user: null, error: TWO_FACTOR_MESSAGES.invalidCode, nextStep: CODE_STEP };
    const { calls } = mockGraphQL({
      SignIn: () => ({
        signIn: { success: false, user: null, error: MESSAGES.additionalStepsRequired, nextStep: CODE_STEP },
      }),
      ConfirmSignIn: () => ({ confirmSignIn: answer }),
    });
    const { onSignedIn } = renderLogin();
    submitPassword();
    const code = await screen.findByRole<HTMLInputElement>('textbox', { name: '6-digit code' });
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Two-factor sign-in');

    // The shared schema checks the format first: nothing is sent.
    fireEvent.change(code, { target: { value: '12ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeFormat)).toBeVisible();
    expect(calls.filter((c) => c.operationName === 'ConfirmSignIn')).toHaveLength(0);

    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toContain(TWO_FACTOR_MESSAGES.invalidCode);
    expect(calls.find((c) => c.operationName === 'ConfirmSignIn')?.variables).toEqual({ challengeResponse: '123456' });

    answer = { success: true, user: patient, error: null, nextStep: 'DONE' };
    fireEvent.change(screen.getByRole('textbox', { name: '6-digit code' }), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => {
      expect(onSignedIn).toHaveBeenCalledWith(expect.objectContaining({ user: patient }));
    });
  });

  it('takes a recovery code instead, and goes back to the password when the sign-in has expired', async () => {
    const { calls } = mockGraphQL({
      SignIn: () => ({
        signIn: { success: false, user: null, error: MESSAGES.additionalStepsRequired, nextStep: CODE_STEP },
      }),
      ConfirmSignIn: () => ({
        confirmSignIn: { success: false, user: null, error: TWO_FACTOR_MESSAGES.challengeExpired, nextStep: null },
      }),
    });
    renderLogin();
    submitPassword();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    const recovery = screen.getByRole('textbox', { name: 'Recovery code' });
    fireEvent.change(recovery, { target: { value: 'abcde-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toContain(TWO_FACTOR_MESSAGES.challengeExpired);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to your account');
    expect(calls.find((c) => c.operationName === 'ConfirmSignIn')?.variables).toEqual({
      challengeResponse: 'abcde-12345',
    });
  });

  it('sets up two-factor when the practice requires it, then shows the recovery codes once before going on', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `code${i}-aaaaa`);
    const { calls } = mockGraphQL({
      SignIn: () => ({
        signIn: { success: false, user: null, error: MESSAGES.additionalStepsRequired, nextStep: SETUP_STEP },
      }),
      StartTotpSetup: () => ({
        startTotpSetup: {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri:
            'otpauth://totp/Test%20Practice:patient%40demo.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Test%20Practice',
        },
      }),
      ConfirmTotpSetup: () => ({ confirmTotpSetup: { recoveryCodes: codes, user: patient } }),
    });
    const { onSignedIn } = renderLogin();
    submitPassword();
    const qr = await screen.findByRole<HTMLImageElement>(
      'img',
      { name: 'QR code for your authenticator app' },
      { timeout: 10_000 },
    );
    expect(qr.src).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    fireEvent.change(screen.getByRole('textbox', { name: '6-digit code' }), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    const list = await screen.findByTestId('recovery-codes');
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(calls.find((c) => c.operationName === 'ConfirmTotpSetup')?.variables).toEqual({ code: '123456' });

    // Not before the person says the codes are saved.
    const go = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });
    expect(go.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'I have saved my recovery codes' }));
    fireEvent.click(go);
    expect(onSignedIn).toHaveBeenCalledWith(expect.objectContaining({ user: patient, nextStep: 'DONE' }));
  });

  it('shows the password on request and says the session expired', () => {
    mockGraphQL({});
    renderLogin({ sessionEnded: 'expired' });
    expect(screen.getByRole('status').textContent).toContain(MESSAGES.sessionExpired);
    const password = screen.getByLabelText<HTMLInputElement>(/^Password/);
    expect(password.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Show password' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('confirms a deliberate sign-out, and says nothing when the page was opened directly', () => {
    mockGraphQL({});
    renderLogin({ sessionEnded: 'signed-out' });
    expect(screen.getByRole('status').textContent).toContain('You have signed out.');
    cleanup();
    renderLogin();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('signs in as a demo account with one click', async () => {
    const { calls } = mockGraphQL({
      DemoSignIn: () => ({ demoSignIn: { success: true, user: patient, error: null, nextStep: 'DONE' } }),
    });
    const { onSignedIn } = renderLogin({
      demoAccounts: [{ email: 'patient@demo.test', role: 'patient', label: 'Patient' }],
    });
    fireEvent.click(screen.getByRole('button', { name: /Patient.*patient@demo\.test/ }));
    await waitFor(() => {
      expect(onSignedIn).toHaveBeenCalledTimes(1);
    });
    expect(calls[0]?.variables).toEqual({ email: 'patient@demo.test' });
  });

  it('opens each request form at its own address, keeps what was typed, and comes back to sign-in', async () => {
    mockGraphQL({});
    window.history.replaceState(null, '', '/login');
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: "I'm a Patient" }));
    expect(await screen.findByRole('heading', { name: 'Request patient access' }, { timeout: 15_000 })).toBeVisible();
    expect(window.location.pathname).toBe('/request-access/patient');
    expect(document.title).toContain('Request patient access');
    fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: 'Nora' } });

    // The browser's Back: the sign-in form again, the patient form kept (hidden) with what was typed.
    window.history.back();
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' }, { timeout: 10_000 })).toBeVisible();
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByRole('heading', { name: 'Request patient access' })).toBeNull();
    window.history.forward();
    expect(await screen.findByRole('heading', { name: 'Request patient access' }, { timeout: 10_000 })).toBeVisible();
    expect(screen.getByLabelText<HTMLInputElement>(/^First name/).value).toBe('Nora');

    fireEvent.click(screen.getAllByRole('button', { name: 'Back to Home' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' }, { timeout: 10_000 })).toBeVisible();
    await waitFor(
      () => {
        expect(window.location.pathname).toBe('/login');
      },
      { timeout: 10_000 },
    );
  }, 30_000);

  it('says the shared schema’s messages and the server’s refusals in Spanish', async () => {
    let answer = signInResult(MESSAGES.invalidCredentials, { id: 'messages.invalidCredentials', params: [] });
    mockGraphQL({ SignIn: () => answer() });
    await i18n.changeLanguage('es');
    renderLogin();

    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findByText('El correo electrónico es obligatorio')).toBeVisible();
    expect(screen.getByText('La contraseña es obligatoria')).toBeVisible();

    fireEvent.change(screen.getByLabelText(/^Correo electrónico/), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText(/^Contraseña/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findByText('Ingrese una dirección de correo electrónico válida')).toBeVisible();

    fireEvent.change(screen.getByLabelText(/^Correo electrónico/), { target: { value: 'someone@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => {
      expect(alert.textContent).toContain('Credenciales no válidas');
    });
    expect(alert.textContent).toContain('Error al iniciar sesión');

    answer = signInResult(accountLockedMessage(5 * 60_000), {
      id: 'messages.accountLocked',
      params: [{ name: 'count', value: '5' }],
    });
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
