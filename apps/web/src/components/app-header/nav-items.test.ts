import { describe, expect, it } from 'vitest';

import { navItemsFor } from './nav-items.ts';

describe('the header links', () => {
  it('offer each role only what it can use', () => {
    const keys = (role: Parameters<typeof navItemsFor>[0]) => navItemsFor(role).map((item) => item.key);
    expect(keys('provider')).toEqual(['dashboard', 'patients', 'providers', 'calendar', 'notes', 'messages']);
    expect(keys('admin')).toEqual(['dashboard', 'patients', 'providers', 'calendar', 'notes', 'messages']);
    expect(keys('patient')).toEqual(['dashboard', 'providers', 'calendar', 'messages']);
    expect(keys(null)).toEqual(['dashboard', 'messages']);
  });
});
