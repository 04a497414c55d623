import type { CurrentUser } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import {
  canUseAdminConsole,
  canUseNotes,
  canUsePatientPortal,
  decideProtectedRoute,
  decidePublicOnlyRoute,
} from './route-guard.ts';

const provider: CurrentUser = {
  userId: 'u1',
  email: 'provider@demo.test',
  name: 'Maya Okafor',
  role: 'provider',
  source: 'database',
};
const admin: CurrentUser = { ...provider, userId: 'u2', role: 'admin', name: 'Avery Admin' };
const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('decideProtectedRoute', () => {
  it('renders for a signed-in person', () => {
    expect(decideProtectedRoute({ user: provider, failed: false }, at('/patients'), null)).toEqual({ type: 'render' });
  });

  it('waits while the session is being checked, and offers a retry when the check failed', () => {
    expect(decideProtectedRoute({ user: undefined, failed: false }, at('/patients'), null)).toEqual({
      type: 'checking',
    });
    expect(decideProtectedRoute({ user: undefined, failed: true }, at('/patients'), null)).toEqual({
      type: 'check-failed',
    });
  });

  it('sends a signed-out person to /login, remembering the path they asked for', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/patients/42/edit', '?tab=notes'), null)).toEqual({
      type: 'sign-in',
      handoff: { from: '/patients/42/edit?tab=notes' },
    });
  });

  it('does not remember the dashboard, which is where sign-in goes anyway', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/dashboard'), null)).toEqual({
      type: 'sign-in',
      handoff: {},
    });
  });

  it('says the session expired when it did', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/calendar'), 'expired')).toEqual({
      type: 'sign-in',
      handoff: { from: '/calendar', sessionExpired: true },
    });
  });

  it('forgets the path after a deliberate sign-out, and says the person signed out', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/notes'), 'signed-out')).toEqual({
      type: 'sign-in',
      handoff: { signedOut: true },
    });
  });
});

describe('decidePublicOnlyRoute', () => {
  it('sends a signed-in person to the dashboard', () => {
    expect(decidePublicOnlyRoute({ user: provider, failed: false })).toEqual({
      type: 'redirect',
      to: '/dashboard',
    });
  });

  it('shows the page to a signed-out person, and also when the check failed', () => {
    expect(decidePublicOnlyRoute({ user: null, failed: false })).toEqual({ type: 'render' });
    expect(decidePublicOnlyRoute({ user: undefined, failed: true })).toEqual({ type: 'render' });
    expect(decidePublicOnlyRoute({ user: undefined, failed: false })).toEqual({ type: 'checking' });
  });
});

describe('canUseAdminConsole', () => {
  it('lets only administrators in', () => {
    expect(canUseAdminConsole(admin)).toBe(true);
    expect(canUseAdminConsole(provider)).toBe(false);
    expect(canUseAdminConsole({ ...provider, role: 'patient' })).toBe(false);
    expect(canUseAdminConsole(null)).toBe(false);
  });
});

describe('canUseNotes and canUsePatientPortal', () => {
  const patient: CurrentUser = { ...provider, userId: 'u3', role: 'patient', name: 'Jordan Patel' };

  it('opens /notes to providers and administrators, not to patients', () => {
    expect(canUseNotes(provider)).toBe(true);
    expect(canUseNotes(admin)).toBe(true);
    expect(canUseNotes(patient)).toBe(false);
  });

  it('opens the patient portal (/my/*) to patients only', () => {
    expect(canUsePatientPortal(patient)).toBe(true);
    expect(canUsePatientPortal(provider)).toBe(false);
    expect(canUsePatientPortal(admin)).toBe(false);
    expect(canUsePatientPortal(null)).toBe(false);
  });
});
