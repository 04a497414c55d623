import type { CurrentUser } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import {
  canUseAdminConsole,
  decideProtectedRoute,
  decidePublicOnlyRoute,
  readLoginLocationState,
  safeReturnPath,
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
      type: 'redirect',
      to: '/login',
      state: { from: '/patients/42/edit?tab=notes' },
    });
  });

  it('does not remember the dashboard, which is where sign-in goes anyway', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/dashboard'), null)).toEqual({
      type: 'redirect',
      to: '/login',
      state: {},
    });
  });

  it('says the session expired when it did', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/calendar'), 'expired')).toEqual({
      type: 'redirect',
      to: '/login',
      state: { from: '/calendar', sessionExpired: true },
    });
  });

  it('forgets the path after a deliberate sign-out', () => {
    expect(decideProtectedRoute({ user: null, failed: false }, at('/notes'), 'signed-out')).toEqual({
      type: 'redirect',
      to: '/login',
      state: {},
    });
  });
});

describe('decidePublicOnlyRoute', () => {
  it('sends a signed-in person to the dashboard', () => {
    expect(decidePublicOnlyRoute({ user: provider, failed: false }, null)).toEqual({
      type: 'redirect',
      to: '/dashboard',
    });
  });

  it('returns a person who just signed in to the route they asked for', () => {
    expect(decidePublicOnlyRoute({ user: provider, failed: false }, { from: '/calendar' })).toEqual({
      type: 'redirect',
      to: '/calendar',
    });
  });

  it('never returns to another site', () => {
    expect(decidePublicOnlyRoute({ user: provider, failed: false }, { from: '//evil.test/x' })).toEqual({
      type: 'redirect',
      to: '/dashboard',
    });
  });

  it('shows the page to a signed-out person, and also when the check failed', () => {
    expect(decidePublicOnlyRoute({ user: null, failed: false }, null)).toEqual({ type: 'render' });
    expect(decidePublicOnlyRoute({ user: undefined, failed: true }, null)).toEqual({ type: 'render' });
    expect(decidePublicOnlyRoute({ user: undefined, failed: false }, null)).toEqual({ type: 'checking' });
  });
});

describe('safeReturnPath and readLoginLocationState', () => {
  it('accepts only paths on this site other than /login', () => {
    expect(safeReturnPath('/patients')).toBe('/patients');
    expect(safeReturnPath('https://evil.test')).toBeNull();
    expect(safeReturnPath('//evil.test')).toBeNull();
    expect(safeReturnPath('/\\evil.test')).toBeNull();
    expect(safeReturnPath('/login')).toBeNull();
    expect(safeReturnPath('/login?x=1')).toBeNull();
    expect(safeReturnPath('/loginx')).toBe('/loginx');
    expect(safeReturnPath(42)).toBeNull();
  });

  it('reads only the known fields of router state', () => {
    expect(readLoginLocationState({ from: '/notes', sessionExpired: true, other: 1 })).toEqual({
      from: '/notes',
      sessionExpired: true,
    });
    expect(readLoginLocationState({ sessionExpired: 'yes' })).toEqual({});
    expect(readLoginLocationState(undefined)).toEqual({});
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
