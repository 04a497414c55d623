import { deleteConfirmation, PATIENT_MESSAGES } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { toFilterInput } from '../api/patient-schemas.ts';
import { ageOf, formatCalendarDate, patientInitials } from './format.ts';

describe('formatCalendarDate', () => {
  it('shows a date of birth on its own day in every time zone', () => {
    // Parsed as local midnight, 1990-01-01 would show as Dec 31, 1989 west of Greenwich.
    expect(formatCalendarDate('1990-01-01', 'en-US')).toBe('Jan 1, 1990');
  });

  it('shows what it cannot read as it is', () => {
    expect(formatCalendarDate('not a date', 'en-US')).toBe('not a date');
  });
});

describe('ageOf', () => {
  it('counts whole years, the birthday included', () => {
    const today = new Date(2026, 3, 12);
    expect(ageOf('1986-04-12', today)).toBe(40);
    expect(ageOf('1986-04-13', today)).toBe(39);
    expect(ageOf('garbage', today)).toBeNull();
  });
});

describe('patientInitials', () => {
  it('takes the first letters of the names', () => {
    expect(patientInitials({ firstName: 'amara', lastName: "O'Donnell" })).toBe('AO');
  });
});

describe('toFilterInput', () => {
  it('sends only what is set, the search trimmed', () => {
    expect(toFilterInput({ search: '  ', status: 'all' })).toEqual({});
    expect(toFilterInput({ search: ' okafor ', status: 'inactive' })).toEqual({ search: 'okafor', isActive: false });
    expect(toFilterInput({ search: '', status: 'active' })).toEqual({ isActive: true });
  });
});

describe('screen texts', () => {
  it('asks before deleting in the specification’s words', () => {
    expect(i18n.t('patients:delete.confirmation', { firstName: 'Jordan', lastName: 'Patel' })).toBe(
      deleteConfirmation('Jordan', 'Patel'),
    );
  });

  it('uses the shared patient messages', () => {
    expect(i18n.t('shared:patientMessages.deleted')).toBe(PATIENT_MESSAGES.deleted);
    expect(i18n.t('shared:patientMessages.accessDeniedPage')).toBe(PATIENT_MESSAGES.accessDeniedPage);
    expect(i18n.t('patients:list.showing', { shown: 100, total: 5001 })).toBe('Showing 100 of 5001 patients');
  });
});
