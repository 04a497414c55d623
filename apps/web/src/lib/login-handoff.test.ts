import { afterEach, describe, expect, it } from 'vitest';

import { parseLoginHandoff, safeReturnPath, takeLoginHandoff, writeLoginHandoff } from './login-handoff.ts';

afterEach(() => {
  sessionStorage.clear();
});

describe('safeReturnPath', () => {
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
});

describe('parseLoginHandoff', () => {
  it('keeps only the known fields, each checked', () => {
    expect(parseLoginHandoff({ from: '/notes', sessionExpired: true, email: ' Ana@Example.com ', other: 1 })).toEqual({
      from: '/notes',
      sessionExpired: true,
      email: 'ana@example.com',
    });
    expect(parseLoginHandoff({ signedOut: true })).toEqual({ signedOut: true });
    expect(
      parseLoginHandoff({ from: '//evil.test', sessionExpired: 'yes', signedOut: 1, email: 'not an address' }),
    ).toEqual({});
    expect(parseLoginHandoff(undefined)).toEqual({});
  });
});

describe('writeLoginHandoff and takeLoginHandoff', () => {
  it('hands over once, through this tab’s storage and not the address', () => {
    writeLoginHandoff({ from: '/calendar', sessionExpired: true }, 1_000);
    expect(takeLoginHandoff(2_000)).toEqual({ from: '/calendar', sessionExpired: true });
    expect(takeLoginHandoff(2_000)).toEqual({});
  });

  it('ignores a handoff the tab wrote long ago, and anything malformed', () => {
    writeLoginHandoff({ sessionExpired: true }, 1_000);
    expect(takeLoginHandoff(1_000 + 61_000)).toEqual({});
    sessionStorage.setItem('telehealth.login-handoff', '{not json');
    expect(takeLoginHandoff()).toEqual({});
    sessionStorage.setItem('telehealth.login-handoff', JSON.stringify({ sessionExpired: true }));
    expect(takeLoginHandoff()).toEqual({});
  });
});
