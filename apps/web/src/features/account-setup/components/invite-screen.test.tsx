import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { InviteScreen } from './invite-screen.tsx';

const PASSWORD = 'Good-Pass-2026!';

function renderInvite(path: string) {
  return renderRoutes(
    [
      { path: '/invite', element: <InviteScreen /> },
      { path: '/login', element: <h1>Sign in page</h1> },
    ],
    path,
  );
}

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

    expect(await screen.findByText(/Choose a password for new@example.test/)).toBeDefined();
    expect(calls.find((call) => call.operationName === 'InvitationStatus')?.variables).toEqual({ token: 'tok-123' });

    fillPasswords('short', 'short');
    expect(
      await screen.findByText('Password must be at least 8 characters long', {
        selector: '.mantine-InputWrapper-error',
      }),
    ).toBeDefined();
    fillPasswords(PASSWORD, `${PASSWORD}x`);
    expect(await screen.findByText('The passwords do not match')).toBeDefined();
    expect(calls.some((call) => call.operationName === 'AcceptInvitation')).toBe(false);

    fillPasswords(PASSWORD, PASSWORD);
    expect(await screen.findByRole('heading', { name: 'Your password is set' })).toBeDefined();
    expect(calls.find((call) => call.operationName === 'AcceptInvitation')?.variables).toEqual({
      token: 'tok-123',
      password: PASSWORD,
    });
  });

  it('explains an expired invitation', async () => {
    mockGraphQL({
      CurrentUser: () => ({ me: null }),
      InvitationStatus: () => ({ invitationStatus: { status: 'expired', email: null, expiresAt: null } }),
    });
    renderInvite('/invite#old');
    expect(await screen.findByRole('heading', { name: 'This invitation has expired' })).toBeDefined();
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
      expect(screen.getByRole('heading', { name: 'This invitation has already been used' })).toBeDefined();
    });
  });

  it('without a token, says the link is not valid without asking the server', async () => {
    const { calls } = mockGraphQL({ CurrentUser: () => ({ me: null }) });
    renderInvite('/invite');
    expect(await screen.findByRole('heading', { name: 'This invitation link is not valid' })).toBeDefined();
    expect(calls.some((call) => call.operationName === 'InvitationStatus')).toBe(false);
  });
});
