import {
  AppConfigSchema,
  CurrentUserSchema,
  PageBootstrapSchema,
  type AppConfig,
  type CurrentUser,
} from '@telehealth/shared';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { z } from 'zod';

import { graphqlRequest, onUnauthenticated } from './graphql.ts';
import { queryClient, shouldRetryQuery } from './query-client.ts';
import { broadcastSessionEvent, startSessionSync } from './session-sync.ts';
import { demoSignIn, isSignedInResult, USER_FIELDS } from './sign-in.ts';

// The session is app-wide state: the route guards, the header, the dashboard and the idle timer all read it,
// so it lives here rather than in one feature (features never import each other).

export type { AppConfig } from '@telehealth/shared';

export const sessionQueryKeys = {
  currentUser: ['session', 'me'] as const,
  appConfig: ['app-config'] as const,
};

const ME_QUERY = `query CurrentUser { me { ${USER_FIELDS} } }`;
const APP_CONFIG_QUERY = `query AppConfig {
  appConfig {
    practiceName demoMode sessionIdleMinutes version demoAccounts { email role label }
    clinicPhone bookingUrl contactEmail emergencyBanner { enabled heading body } practiceTimeZone messageResponseBusinessDays
  }
}`;
const SIGN_OUT_MUTATION = 'mutation SignOut { signOut }';

// --- Why the last session ended, so the login screen can say "Your session expired". ------------------------

export type SessionEndReason = 'expired' | 'signed-out';

let sessionEndReason: SessionEndReason | null = null;
const endReasonListeners = new Set<() => void>();

function setSessionEndReason(reason: SessionEndReason | null): void {
  sessionEndReason = reason;
  for (const listener of endReasonListeners) listener();
}

export function getSessionEndReason(): SessionEndReason | null {
  return sessionEndReason;
}

/** The login screen calls this once it has shown the reason. */
export function clearSessionEndReason(): void {
  if (sessionEndReason !== null) setSessionEndReason(null);
}

export function useSessionEndReason(): SessionEndReason | null {
  return useSyncExternalStore((listener) => {
    endReasonListeners.add(listener);
    return () => {
      endReasonListeners.delete(listener);
    };
  }, getSessionEndReason);
}

function isSessionQuery(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === sessionQueryKeys.currentUser[0] || queryKey[0] === sessionQueryKeys.appConfig[0];
}

/** Drops every cached answer that belonged to the previous user (the public app configuration stays). */
function forgetUserData(): void {
  const predicate = (query: { queryKey: readonly unknown[] }) => !isSessionQuery(query.queryKey);
  void queryClient.cancelQueries({ predicate });
  queryClient.removeQueries({ predicate });
}

function getCachedUser(): CurrentUser | null {
  return queryClient.getQueryData<CurrentUser | null>(sessionQueryKeys.currentUser) ?? null;
}

/**
 * Ends the session in this tab: forgets the user's data and the user, which makes the route guard send the
 * person to /login. `expired` makes the login screen say so. Does not call the server (see useSignOut).
 */
export function endSession(reason: SessionEndReason, options: { broadcast?: boolean } = {}): void {
  if (getCachedUser() === null) return;
  setSessionEndReason(reason);
  forgetUserData();
  queryClient.setQueryData(sessionQueryKeys.currentUser, null);
  if (options.broadcast !== false) broadcastSessionEvent({ type: 'ended', reason });
}

/** Makes `user` the signed-in person in this tab, after a sign-in the server confirmed. */
function completeSignIn(user: CurrentUser): void {
  setSessionEndReason(null);
  forgetUserData();
  queryClient.setQueryData(sessionQueryKeys.currentUser, user);
  broadcastSessionEvent({ type: 'signed-in' });
}

onUnauthenticated(() => {
  endSession('expired');
});

// --- Queries and mutations --------------------------------------------------------------------------------

/**
 * Settings of the two start-up queries. Every screen waits for them, so a failure is shown after one retry,
 * and stays shown: a screen mounting later must not refetch an errored query by itself (that would put
 * the guards back into "checking" and loop); the "Try again" button refetches.
 */
const startupQuerySettings = {
  staleTime: Number.POSITIVE_INFINITY,
  retry: (failureCount: number, error: unknown) => failureCount < 1 && shouldRetryQuery(failureCount, error),
  retryOnMount: false,
} as const;

export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  const previous = getCachedUser();
  const { me: user } = await graphqlRequest(ME_QUERY, z.object({ me: CurrentUserSchema.nullable() }));
  if (previous && user === null) {
    // The server no longer knows this browser although we were signed in: the session ended there.
    endSession('expired');
  } else if (previous && user && previous.userId !== user.userId) {
    // Another tab signed in as someone else; nothing cached for the previous user may be shown.
    forgetUserData();
  }
  return user;
}

export const currentUserQueryOptions = queryOptions({
  queryKey: sessionQueryKeys.currentUser,
  queryFn: fetchCurrentUser,
  ...startupQuerySettings,
});

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions);
}

export async function fetchAppConfig(): Promise<AppConfig> {
  const data = await graphqlRequest(APP_CONFIG_QUERY, z.object({ appConfig: AppConfigSchema }), undefined, {
    extendsSession: false,
  });
  return data.appConfig;
}

export const appConfigQueryOptions = queryOptions({
  queryKey: sessionQueryKeys.appConfig,
  queryFn: fetchAppConfig,
  ...startupQuerySettings,
});

export function useAppConfig() {
  return useQuery(appConfigQueryOptions);
}

/**
 * Seeds the two start-up queries from what the server wrote into the page (lib/page-bootstrap.ts), so the
 * first screen renders without asking: the configuration always, the user when the page was fetched without
 * a session (with one, `me` is still asked for: the page does not carry who it is). Anything malformed is
 * ignored and the queries ask the server as before.
 */
export function applyPageBootstrap(raw: unknown): void {
  const parsed = PageBootstrapSchema.safeParse(raw);
  if (!parsed.success) return;
  queryClient.setQueryData(sessionQueryKeys.appConfig, parsed.data.config);
  if (parsed.data.signedIn === false) queryClient.setQueryData(sessionQueryKeys.currentUser, null);
}

/** Asks the server to end the session, ignoring failures: the browser forgets the user either way. */
export async function requestSignOut(): Promise<void> {
  try {
    await graphqlRequest(SIGN_OUT_MUTATION, z.object({ signOut: z.boolean().nullable() }), undefined, {
      extendsSession: false,
    });
  } catch {
    // An already-ended session answers UNAUTHENTICATED or the network is down; the server session then
    // ends by its idle timeout.
  }
}

export function useSignOut() {
  return useMutation({
    mutationFn: requestSignOut,
    onSettled: () => {
      endSession('signed-out');
    },
  });
}

/** Signs in as a seeded demo account (demo mode only); on success the user becomes the signed-in person. */
export function useDemoSignIn() {
  return useMutation({
    mutationFn: demoSignIn,
    onSuccess: (result) => {
      if (isSignedInResult(result)) completeSignIn(result.user);
    },
  });
}

/** Follows sign-ins and sign-outs made in the browser's other tabs. Returns a stop function. */
export function startCrossTabSession(): () => void {
  return startSessionSync((event) => {
    if (event.type === 'ended') {
      endSession(event.reason, { broadcast: false });
    } else {
      void queryClient.invalidateQueries({ queryKey: sessionQueryKeys.currentUser });
    }
  });
}
