import { describe, expect, it } from 'vitest';

import { counterpartName, initialsOf } from './appointment-display.ts';

const visit = { patient: 'Jordan Patel', providerName: 'Maya Okafor' };

describe('counterpartName', () => {
  it('names the clinician to the patient', () => {
    expect(counterpartName(visit, 'patient')).toBe('Maya Okafor');
  });

  it('names the patient to staff', () => {
    expect(counterpartName(visit, 'provider')).toBe('Jordan Patel');
    expect(counterpartName(visit, 'admin')).toBe('Jordan Patel');
  });

  it('names the patient while the role is not known yet', () => {
    expect(counterpartName(visit, undefined)).toBe('Jordan Patel');
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first two names', () => {
    expect(initialsOf('Maya Okafor')).toBe('MO');
  });
});
