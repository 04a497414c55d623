import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';

import '../lib/i18n.ts';

/**
 * Renders routes in a memory router with a fresh query cache (no retries), Mantine and its notifications.
 * Returns the router, to check where a screen navigated.
 */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <Notifications />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
  const result = render(wrap(<RouterProvider router={router} />));
  return { ...result, router, queryClient };
}
