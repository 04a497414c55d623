import { hasPermission, type CurrentUser } from '@telehealth/shared';

import type { SessionEndReason } from '../lib/auth.ts';

/** What /login is told in router state (never in the URL): where to return, and whether the session expired. */
export interface LoginLocationState {
  from?: string;
  sessionExpired?: boolean;
}

export interface SessionCheck {
  /** undefined while unknown, null when nobody is signed in. */
  user: CurrentUser | null | undefined;
  /** The session check failed (network, server) and nothing is known about the user. */
  failed: boolean;
}

export type GuardDecision =
  | { type: 'checking' }
  | { type: 'check-failed' }
  | { type: 'render' }
  | { type: 'redirect'; to: string; state?: LoginLocationState };

export const HOME_AFTER_SIGN_IN = '/dashboard';
const LOGIN_PATH = '/login';

/**
 * A path inside this app to return to after sign-in, or null. Only same-site paths: never another origin
 * ("//evil.test", "/\\evil.test"), never the login page itself.
 */
export function safeReturnPath(from: unknown): string | null {
  if (typeof from !== 'string' || !from.startsWith('/')) return null;
  if (from.startsWith('//') || from.startsWith('/\\')) return null;
  if (
    from === LOGIN_PATH ||
    from.startsWith(`${LOGIN_PATH}?`) ||
    from.startsWith(`${LOGIN_PATH}/`) ||
    from.startsWith(`${LOGIN_PATH}#`)
  )
    return null;
  return from;
}

export function readLoginLocationState(state: unknown): LoginLocationState {
  if (state === null || typeof state !== 'object') return {};
  const from = 'from' in state ? safeReturnPath(state.from) : null;
  const sessionExpired = 'sessionExpired' in state && state.sessionExpired === true;
  return { ...(from ? { from } : {}), ...(sessionExpired ? { sessionExpired } : {}) };
}

/** `/` and `/login`: a signed-in person goes on to where they were headed, or the dashboard. */
export function decidePublicOnlyRoute(check: SessionCheck, locationState: unknown): GuardDecision {
  if (check.user) {
    return { type: 'redirect', to: readLoginLocationState(locationState).from ?? HOME_AFTER_SIGN_IN };
  }
  // A failed check still shows the public page: the crisis lines must never depend on the network.
  if (check.user === undefined && !check.failed) return { type: 'checking' };
  return { type: 'render' };
}

/**
 * Every signed-in route: without a session, /login, remembering the path asked for (unless the person signed
 * out on purpose) and whether the session expired.
 */
export function decideProtectedRoute(
  check: SessionCheck,
  location: { pathname: string; search: string; hash: string },
  endReason: SessionEndReason | null,
): GuardDecision {
  if (check.user) return { type: 'render' };
  if (check.user === undefined) return check.failed ? { type: 'check-failed' } : { type: 'checking' };
  const state: LoginLocationState = {};
  if (endReason !== 'signed-out') {
    const from = safeReturnPath(`${location.pathname}${location.search}${location.hash}`);
    if (from && from !== HOME_AFTER_SIGN_IN) state.from = from;
  }
  if (endReason === 'expired') state.sessionExpired = true;
  return { type: 'redirect', to: LOGIN_PATH, state };
}

/** /admin and everything under it. */
export function canUseAdminConsole(user: CurrentUser | null | undefined): boolean {
  return hasPermission(user?.role, 'admin.console');
}

/** /patients: roles that may read patient records (the server narrows providers to their own patients). */
export function canReadPatients(user: CurrentUser | null | undefined): boolean {
  return hasPermission(user?.role, 'patients.read');
}
