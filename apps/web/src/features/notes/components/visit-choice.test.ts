import { describe, expect, it } from 'vitest';

import { formatVisit, orderVisitsForNote, templateKeyForVisit, templateTitle, type NoteVisit } from './visit-choice.ts';

const visit = (id: string, date: string, time: string, status = 'scheduled'): NoteVisit => ({ id, date, time, status });

describe('the visits a note offers', () => {
  const visits = [
    visit('long-ago', '2026-06-01', '09:00', 'completed'),
    visit('last-week', '2026-11-19', '10:00', 'completed'),
    visit('this-morning', '2026-11-26', '09:00', 'completed'),
    visit('this-afternoon', '2026-11-26', '16:00'),
    visit('cancelled-today', '2026-11-26', '14:30', 'cancelled'),
    visit('next-week', '2026-12-03', '10:00'),
    visit('far-ahead', '2026-12-31', '14:00'),
  ];

  it('come nearest to now first, before or after, without the cancelled ones; today’s nearest is chosen', () => {
    const { visits: ordered, todaysId } = orderVisitsForNote(visits, { date: '2026-11-26', time: '14:00' });
    expect(ordered.map((x) => x.id)).toEqual([
      'this-afternoon',
      'this-morning',
      'next-week',
      'last-week',
      'far-ahead',
      'long-ago',
    ]);
    expect(todaysId).toBe('this-afternoon');
  });

  it('keep the cancelled visit a note is already about, and choose nothing on a day without a visit', () => {
    const { visits: ordered, todaysId } = orderVisitsForNote(
      visits,
      { date: '2026-11-27', time: '08:00' },
      'cancelled-today',
    );
    expect(ordered.map((x) => x.id)).toContain('cancelled-today');
    expect(todaysId).toBeNull();
  });

  it('read as dates in the reader’s language, in the practice’s time (no shift by the device’s zone)', () => {
    expect(formatVisit({ date: '2026-12-31', time: '14:00' }, 'en')).toBe('Thu, Dec 31, 2026, 2:00 PM');
    expect(formatVisit({ date: '2026-12-31', time: '14:00' }, 'es')).toMatch(/^jue, 31 dic 2026, 14:00$/);
  });

  it('give a template’s note its title from the visit’s day', () => {
    expect(templateTitle('Psychiatric evaluation', '2026-11-26', 'en')).toBe('Psychiatric evaluation — Nov 26, 2026');
    expect(templateTitle('Evaluación psiquiátrica', '2026-11-26', 'es')).toBe('Evaluación psiquiátrica — 26 nov 2026');
    expect(templateTitle('SOAP note', null, 'en')).toBe('SOAP note');
  });
});

describe('the template a note about a visit starts from', () => {
  it('is the psychiatric evaluation for a first visit and a SOAP note for a follow-up', () => {
    const first = visit('first', '2026-11-26', '10:00', 'completed');
    expect(templateKeyForVisit([first, visit('cancelled', '2026-11-01', '10:00', 'cancelled')], 'first')).toBe(
      'psychiatricEvaluation',
    );
    expect(templateKeyForVisit([visit('before', '2026-10-01', '10:00', 'completed'), first], 'first')).toBe('soap');
    // A later visit does not make this one a follow-up.
    expect(templateKeyForVisit([first, visit('after', '2026-12-01', '10:00', 'completed')], 'first')).toBe(
      'psychiatricEvaluation',
    );
  });
});
