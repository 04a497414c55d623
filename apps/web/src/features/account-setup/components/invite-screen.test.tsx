import { fireEvent, screen, waitFor } from '@testing-library/react';
import { tooManyRequestsMessage } from '@telehealth/shared';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { followSignInLink } from '../../../testing/sign-in-link.ts';
import { InviteScreen } from './invite-screen.tsx';

const PASSWORD = 'Good-Pass-2026!';

function renderInvite(path: string) {
  return renderRoutes([{ path: '/invite', element: <InviteScreen /> }], path);
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

function fillPasswords(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
}

describe('InviteScreen', () => {
  it('sends the token from the fragment, checks the policy and the confirmation, then says the password is set', async () => {
    const { calls } = mockGraphQL({
      CurrentUser: () => ({ me: null }),
      InvitationStatus: () => ({
        invitationStatus: { status: 'valid', email: 'new@example.test', expiresAt: '2026-12-01T12:00:00.000Z' },
      }),
      AcceptInvitation: () => ({ acceptInvitation: { success: true, message: 'ok', email: 'new@example.test' } }),
    });
    renderInvite('/invite#tok-123');

    expect(await screen.findByText(/Choose a password for new@example.test/)).toBeVisible();
    expect(calls.find((call) => call.operationName === 'InvitationStatus')?.variables).toEqual({ token: 'tok-123' });

    fillPasswords('short', 'short');
    expect(
      await screen.findByText('Password must be at least 8 characters long', {
        selector: '.mantine-InputWrapper-error',
      }),
    ).toBeVisible();
    fillPasswords(PASSWORD, `${PASSWORD}x`);
    expect(await screen.findByText('The passwords do not match')).toBeVisible();
    expect(calls.some((call) => call.operationName === 'AcceptInvitation')).toBe(false);

    fillPasswords(PASSWORD, PASSWORD);
    expect(await screen.findByRole('heading', { name: 'Your password is set' })).toBeVisible();
    expect(calls.find((call) => call.operationName === 'AcceptInvitation')?.variables).toEqual({
      token: 'tok-123',
      password: PASSWORD,
    });

    // The sign-in page is told the address through this tab's storage, not in the URL.
    expect(followSignInLink(screen.getByRole('link', { name: 'Go to Sign In' }))).toEqual({
      email: 'new@example.test',
    });
  });

  it('explains an expired invitation', async () => {
    mockGraphQL({
      CurrentUser: () => ({ me: null }),
      InvitationStatus: () => ({ invitationStatus: { status: 'expired', email: null, expiresAt: null } }),
    });
    renderInvite('/invite#old');
    expect(await screen.findByRole('heading', { name: 'This invitation has expired' })).toBeVisible();
  });

  it('shows the used state when the server refuses the token as used', async () => {
    mockGraphQL({
      CurrentUser: () => ({ me: null }),
      InvitationStatus: () => ({
        invitationStatus: { status: 'valid', email: 'new@example.test', expiresAt: null },
      }),
      AcceptInvitation: () => ({
        errors: [{ message: 'used', extensions: { code: 'BAD_USER_INPUT', reason: 'used' } }],
      }),
    });
    renderInvite('/invite#tok');
    await screen.findByText(/Choose a password/);
    fillPasswords(PASSWORD, PASSWORD);
    await waitFor(() => {
      expect(screen.getByRole('heading', { name: 'This invitation has already been used' })).toBeVisible();
    });
  });

  it('without a token, says the link is not valid without asking the server', async () => {
    const { calls } = mockGraphQL({ CurrentUser: () => ({ me: null }) });
    renderInvite('/invite');
    expect(await screen.findByRole('heading', { name: 'This invitation link is not valid' })).toBeVisible();
    expect(calls.some((call) => call.operationName === 'InvitationStatus')).toBe(false);
  });

  it('is in Spanish when chosen there, the password policy and the server’s refusals included', async () => {
    let answer: () => unknown = () => ({
      errors: [
        {
          message: 'Password must contain a symbol',
          extensions: {
            code: 'BAD_USER_INPUT',
            fieldErrors: { password: 'Password must contain a symbol' },
            fields: [{ field: 'password', messageId: 'passwordMessages.symbol', params: {} }],
          },
        },
      ],
    });
    mockGraphQL({
      CurrentUser: () => ({ me: null }),
      InvitationStatus: () => ({
        invitationStatus: { status: 'valid', email: 'new@example.test', expiresAt: null },
      }),
      AcceptInvitation: () => answer(),
    });
    renderInvite('/invite#tok');
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeVisible();

    // The public site's language switcher is on the page.
    fireEvent.click(screen.getByRole('button', { name: 'Español' }));
    expect(await screen.findByRole('heading', { name: 'Cree su contraseña' })).toBeVisible();
    expect(screen.getByText('La contraseña debe contener una letra mayúscula')).toBeVisible();

    const setPassword = () => {
      fireEvent.change(screen.getByLabelText(/^Nueva contraseña/), { target: { value: PASSWORD } });
      fireEvent.change(screen.getByLabelText(/^Confirme la nueva contraseña/), { target: { value: PASSWORD } });
      fireEvent.click(screen.getByRole('button', { name: 'Crear contraseña' }));
    };
    fireEvent.change(screen.getByLabelText(/^Nueva contraseña/), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear contraseña' }));
    expect(
      await screen.findByText('La contraseña debe tener al menos 8 caracteres', {
        selector: '.mantine-InputWrapper-error',
      }),
    ).toBeVisible();

    setPassword();
    expect(
      await screen.findByText('La contraseña debe contener un símbolo', { selector: '.mantine-InputWrapper-error' }),
    ).toBeVisible();

    answer = () => ({
      errors: [
        {
          message: tooManyRequestsMessage(5 * 60_000),
          extensions: {
            code: 'TOO_MANY_REQUESTS',
            messageId: 'messages.tooManyRequests',
            params: { count: 5 },
            retryAfterSeconds: 300,
          },
        },
      ],
    });
    setPassword();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Demasiados intentos. Inténtelo de nuevo en 5 minutos.',
    );
  });
});
