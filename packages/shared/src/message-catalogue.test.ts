import { describe, expect, it } from 'vitest';
import { clinicContactMessage, MESSAGE_CATALOGUE, messageText } from './message-catalogue.ts';
import { accountLockedMessage, tooManyRequestsMessage } from './messages.ts';
import { validationFailedMessage } from './patients.ts';

describe('messageText', () => {
  it('gives the English text of a message id, the specification’s words unchanged', () => {
    expect(messageText('messages.authRequired')).toBe('Authentication required. Please sign in.');
    expect(messageText('patientMessages.notFound')).toBe('Patient not found');
  });

  it('fills parameters and picks the plural by count, like the functions that existed before', () => {
    for (const minutes of [1, 2, 5, 59]) {
      expect(messageText('messages.accountLocked', { count: minutes })).toBe(accountLockedMessage(minutes * 60_000));
      expect(messageText('messages.tooManyRequests', { count: minutes })).toBe(
        tooManyRequestsMessage(minutes * 60_000),
      );
    }
    expect(accountLockedMessage(60_000)).toMatch(/in 1 minute\.$/);
    expect(tooManyRequestsMessage(5 * 60_000)).toBe('Too many attempts. Please try again in 5 minutes.');
    expect(validationFailedMessage(['A', 'B'])).toBe('Validation failed: A, B');
    expect(messageText('requestMessages.tooDeep', { limit: 8 })).toBe('The query is nested more than 8 levels deep.');
  });

  it('holds only texts, whose placeholders are words', () => {
    for (const entries of Object.values(MESSAGE_CATALOGUE)) {
      for (const text of Object.values(entries as Record<string, unknown>)) {
        expect(typeof text).toBe('string');
        expect(String(text).replace(/\{\{\w+\}\}/g, '')).not.toMatch(/\{\{|\}\}/);
      }
    }
  });
});

describe('clinicContactMessage', () => {
  it('names the number to call when the practice has one, and asks for no call without one', () => {
    const withPhone = clinicContactMessage('bookingMessages.cannotChange', '(212) 555-0123');
    expect(withPhone).toEqual({ id: 'bookingMessages.cannotChangePhone', params: { phone: '(212) 555-0123' } });
    expect(messageText(withPhone.id, withPhone.params)).toBe(
      'This visit can no longer be changed online. Please call the clinic at (212) 555-0123.',
    );
    const without = clinicContactMessage('bookingMessages.changeWindowClosed', null, { count: 24 });
    expect(messageText(without.id, without.params)).toBe(
      'Visits can be changed or cancelled online until 24 hours before they start. Please contact the practice.',
    );
  });

  it('leaves no message that asks for a call without giving the number', () => {
    for (const [section, entries] of Object.entries(MESSAGE_CATALOGUE)) {
      for (const [key, text] of Object.entries(entries as Record<string, string>)) {
        if (/\bcall the (clinic|practice)\b/i.test(text)) expect(text, `${section}.${key}`).toContain('{{phone}}');
      }
    }
  });
});
