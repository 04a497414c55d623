import { can, seesPatientList, type CurrentUser } from '@telehealth/shared';

import type { SessionEndReason } from '../lib/auth.ts';
import { HOME_AFTER_SIGN_IN, safeReturnPath, type LoginHandoff } from '../lib/login-handoff.ts';

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
  | { type: 'redirect'; to: string }
  /** To the sign-in page, a document load (lib/login-handoff.ts), telling it `handoff`. */
  | { type: 'sign-in'; handoff: LoginHandoff };

/** `/`: a signed-in person goes to the dashboard. */
export function decidePublicOnlyRoute(check: SessionCheck): GuardDecision {
  if (check.user) return { type: 'redirect', to: HOME_AFTER_SIGN_IN };
  // A failed check still shows the public page: the crisis lines must never depend on the network.
  if (check.user === undefined && !check.failed) return { type: 'checking' };
  return { type: 'render' };
}

/**
 * Every signed-in route: without a session, the sign-in page, remembering the path asked for (unless the person
 * signed out on purpose) and whether the session expired.
 */
export function decideProtectedRoute(
  check: SessionCheck,
  location: { pathname: string; search: string; hash: string },
  endReason: SessionEndReason | null,
): GuardDecision {
  if (check.user) return { type: 'render' };
  if (check.user === undefined) return check.failed ? { type: 'check-failed' } : { type: 'checking' };
  const handoff: LoginHandoff = {};
  if (endReason !== 'signed-out') {
    const from = safeReturnPath(`${location.pathname}${location.search}${location.hash}`);
    if (from && from !== HOME_AFTER_SIGN_IN) handoff.from = from;
  }
  if (endReason === 'expired') handoff.sessionExpired = true;
  if (endReason === 'signed-out') handoff.signedOut = true;
  return { type: 'sign-in', handoff };
}

/** /admin and everything under it: the console of those who manage the practice's accounts. */
export function canUseAdminConsole(user: CurrentUser | null | undefined): boolean {
  return can(user?.role, 'user:manage');
}

/** /patients: roles that may read patient records in some scope (the server narrows "own" to their own). */
export function canReadPatients(user: CurrentUser | null | undefined): boolean {
  // A patient reads only their own record, in the portal's My Records.
  return seesPatientList(user?.role);
}

/** /notes: roles that read notes or see that they exist (a patient reads the notes shared with them in My Records). */
export function canUseNotes(user: CurrentUser | null | undefined): boolean {
  return can(user?.role, 'note:read') || can(user?.role, 'note:index');
}

/** /my/*: the patient portal's pages, for the role whose own patient record is linked to their account. */
export function canUsePatientPortal(user: CurrentUser | null | undefined): boolean {
  return Boolean(user) && can(user?.role, 'patient:read') && !seesPatientList(user?.role);
}
