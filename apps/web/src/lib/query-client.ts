import { QueryClient } from '@tanstack/react-query';

import { isGraphQLRequestError } from './graphql.ts';

/** Only a network failure is worth retrying; a GraphQL error will answer the same again. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return isGraphQLRequestError(error) && error.kind === 'network' && failureCount < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Background refetches would count as activity and keep an unattended session alive, defeating the
      // automatic logoff; data is refetched when a screen asks for it, not when the window regains focus.
      refetchOnWindowFocus: false,
      retry: shouldRetryQuery,
    },
    mutations: { retry: false },
  },
});
