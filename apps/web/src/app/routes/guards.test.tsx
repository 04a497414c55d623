import { MantineProvider } from '@mantine/core';
import type { CurrentUser } from '@telehealth/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { clearSessionEndReason, endSession, sessionQueryKeys } from '../../lib/auth.ts';
import '../../lib/i18n.ts';
import { goToLogin } from '../../lib/login-handoff.ts';
import type * as LoginHandoffModule from '../../lib/login-handoff.ts';
import { queryClient } from '../../lib/query-client.ts';
import { AdminRoute, ProtectedRoute, PublicOnlyRoute } from './guards.tsx';

// The sign-in page is a document load (the public site's page): the test sees what it was told instead.
vi.mock('../../lib/login-handoff.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof LoginHandoffModule>()),
  goToLogin: vi.fn(),
}));

const provider: CurrentUser = {
  userId: 'u1',
  email: 'provider@demo.test',
  name: 'Maya Okafor',
  role: 'provider',
  source: 'server',
};

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { Component: PublicOnlyRoute, children: [{ path: '/', element: <h1>Landing</h1> }] },
      {
        Component: ProtectedRoute,
        children: [
          { path: '/dashboard', element: <h1>Dashboard</h1> },
          { path: '/calendar', element: <h1>Calendar</h1> },
          { path: '/admin', Component: AdminRoute, children: [{ index: true, element: <h1>Console</h1> }] },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return router;
}

function signedInAs(user: CurrentUser | null) {
  queryClient.setQueryData(sessionQueryKeys.currentUser, user);
  // The public configuration is known, so the public pages do not wait for it.
  queryClient.setQueryData(sessionQueryKeys.appConfig, {
    practiceName: 'Test Practice',
    demoMode: false,
    sessionIdleMinutes: 15,
    version: 'test',
    demoAccounts: [],
    clinicPhone: null,
    bookingUrl: null,
    emergencyBanner: { enabled: false, heading: null, body: null },
    practiceTimeZone: 'America/New_York',
    messageResponseBusinessDays: 2,
  });
}

afterEach(() => {
  queryClient.clear();
  clearSessionEndReason();
  vi.mocked(goToLogin).mockClear();
});

describe('route guards', () => {
  it('sends a signed-out person to the sign-in page, remembering the route they asked for', async () => {
    signedInAs(null);
    renderAt('/calendar');
    await waitFor(() => {
      expect(goToLogin).toHaveBeenCalledWith({ from: '/calendar' }, { replace: true });
    });
    expect(goToLogin).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('heading', { name: 'Calendar' })).toBeNull();
  });

  it('tells the sign-in page that the session expired when it ends while in use', async () => {
    signedInAs(provider);
    renderAt('/calendar');
    await screen.findByRole('heading', { name: 'Calendar' });
    act(() => {
      endSession('expired');
    });
    await waitFor(() => {
      expect(goToLogin).toHaveBeenCalledWith({ from: '/calendar', sessionExpired: true }, { replace: true });
    });
    expect(screen.queryByRole('heading', { name: 'Calendar' })).toBeNull();
  });

  it('forgets the route after a deliberate sign-out', async () => {
    signedInAs(provider);
    renderAt('/calendar');
    await screen.findByRole('heading', { name: 'Calendar' });
    act(() => {
      endSession('signed-out');
    });
    await waitFor(() => {
      expect(goToLogin).toHaveBeenCalledWith({ signedOut: true }, { replace: true });
    });
  });

  it('sends a signed-in person away from / to the dashboard', async () => {
    signedInAs(provider);
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(goToLogin).not.toHaveBeenCalled();
  });

  it('shows Access Denied with the administrator message to non-admins under /admin', async () => {
    signedInAs(provider);
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeVisible();
    expect(screen.getByText('Administrator access required.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeEnabled();
  });

  it('lets administrators into /admin', async () => {
    signedInAs({ ...provider, role: 'admin' });
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeVisible();
  });
});
