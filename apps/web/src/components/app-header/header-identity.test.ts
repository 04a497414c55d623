import { ROLE_LABELS } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { getHeaderIdentity, getInitials } from './header-identity.ts';

const text = {
  fallbackName: 'User',
  fallbackRole: 'Staff',
  roleLabel: (role: keyof typeof ROLE_LABELS) => ROLE_LABELS[role],
};

describe('getHeaderIdentity', () => {
  it('shows the user name and the role label', () => {
    expect(getHeaderIdentity({ name: 'Maya Okafor', role: 'provider' }, text)).toEqual({
      name: 'Maya Okafor',
      roleLabel: 'Provider/Doctor',
      initials: 'MO',
    });
  });

  it("falls back to 'User' and 'Staff' when name or role are missing", () => {
    expect(getHeaderIdentity(null, text)).toEqual({ name: 'User', roleLabel: 'Staff', initials: 'U' });
    expect(getHeaderIdentity({ name: '   ', role: undefined }, text).name).toBe('User');
  });

  it("falls back to 'Staff' for a role the browser does not know", () => {
    expect(getHeaderIdentity({ name: 'Sam', role: 'unknown' }, text).roleLabel).toBe('Staff');
  });
});

describe('getInitials', () => {
  it('takes the first letters of the first and last word', () => {
    expect(getInitials('Jordan Lee Patel')).toBe('JP');
    expect(getInitials('avery')).toBe('A');
    expect(getInitials('')).toBe('');
  });
});
