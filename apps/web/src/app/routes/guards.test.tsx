import { MantineProvider } from '@mantine/core';
import type { CurrentUser } from '@telehealth/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';

import { clearSessionEndReason, endSession, sessionQueryKeys } from '../../lib/auth.ts';
import '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { AdminRoute, ProtectedRoute, PublicOnlyRoute } from './guards.tsx';

const provider: CurrentUser = {
  userId: 'u1',
  email: 'provider@demo.test',
  name: 'Maya Okafor',
  role: 'provider',
  source: 'server',
};

function LoginProbe() {
  const location = useLocation();
  return <output aria-label="login state">{JSON.stringify(location.state ?? {})}</output>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { Component: PublicOnlyRoute, children: [{ path: '/login', Component: LoginProbe }] },
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
  });
}

afterEach(() => {
  queryClient.clear();
  clearSessionEndReason();
});

describe('route guards', () => {
  it('sends a signed-out person to /login and remembers the route they asked for', async () => {
    signedInAs(null);
    const router = renderAt('/calendar');
    expect(await screen.findByLabelText('login state')).toHaveProperty('textContent', '{"from":"/calendar"}');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('returns to the remembered route once signed in', async () => {
    signedInAs(null);
    const router = renderAt('/calendar');
    await screen.findByLabelText('login state');
    act(() => {
      queryClient.setQueryData(sessionQueryKeys.currentUser, provider);
    });
    expect(await screen.findByRole('heading', { name: 'Calendar' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/calendar');
  });

  it('tells /login that the session expired when it ends while in use', async () => {
    signedInAs(provider);
    renderAt('/calendar');
    await screen.findByRole('heading', { name: 'Calendar' });
    act(() => {
      endSession('expired');
    });
    expect((await screen.findByLabelText('login state')).textContent).toBe(
      '{"from":"/calendar","sessionExpired":true}',
    );
  });

  it('forgets the route after a deliberate sign-out', async () => {
    signedInAs(provider);
    renderAt('/calendar');
    await screen.findByRole('heading', { name: 'Calendar' });
    act(() => {
      endSession('signed-out');
    });
    expect((await screen.findByLabelText('login state')).textContent).toBe('{}');
  });

  it('sends a signed-in person away from /login to the dashboard', async () => {
    signedInAs(provider);
    const router = renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows Access Denied with the administrator message to non-admins under /admin', async () => {
    signedInAs(provider);
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeDefined();
    expect(screen.getByText('Administrator access required.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeDefined();
  });

  it('lets administrators into /admin', async () => {
    signedInAs({ ...provider, role: 'admin' });
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeDefined();
  });
});
