import { describe, expect, it } from 'vitest';

import { invitationLinkState } from './invitation-state.ts';

describe('invitationLinkState', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');

  it('tells an open link from an expired one and from none', () => {
    expect(invitationLinkState('2026-11-24T10:00:00.000Z', 'en', now)).toMatchObject({ state: 'open' });
    expect(invitationLinkState('2026-11-24T10:00:00.000Z', 'en', now).date).toContain('2026');
    expect(invitationLinkState('2026-11-21T09:59:59.000Z', 'en', now)).toMatchObject({ state: 'expired' });
    expect(invitationLinkState(null, 'en', now)).toEqual({ state: 'none', date: null });
    expect(invitationLinkState('garbage', 'en', now)).toEqual({ state: 'none', date: null });
  });
});
