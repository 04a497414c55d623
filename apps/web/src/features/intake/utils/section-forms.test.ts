import { describe, expect, it } from 'vitest';

import { answersOf, initialDraft, resumeIndex } from './section-forms.ts';

const RECORD = [
  { field: 'firstName' as const, value: 'Tomas' },
  { field: 'phone' as const, value: null },
];

describe('the intake steps', () => {
  it('starts the details from the patient record until they are saved', () => {
    const draft = initialDraft('details', { answers: {}, recordDetails: RECORD });
    expect(draft.values['firstName']).toBe('Tomas');
    expect(draft.values['phone']).toBe('');
    const saved = initialDraft('details', {
      answers: { details: { firstName: 'Tom', lastName: 'B', dateOfBirth: '1980-01-01' } },
      recordDetails: RECORD,
    });
    expect(saved.values['firstName']).toBe('Tom');
  });

  it('keeps a saved list and sends it back as the answers', () => {
    const draft = initialDraft('medications', {
      answers: {
        medications: { medications: [{ name: 'sertraline', dose: '50 mg', frequency: null }], allergies: [] },
      },
      recordDetails: [],
    });
    expect(draft.lists['medications']).toEqual([{ name: 'sertraline', dose: '50 mg', frequency: '' }]);
    expect(answersOf(draft)).toEqual({
      medications: [{ name: 'sertraline', dose: '50 mg', frequency: '' }],
      allergies: [],
    });
  });

  it('comes back to the step the patient left off at', () => {
    expect(resumeIndex({ steps: ['details', 'insurance', 'pharmacy'], currentSection: 'pharmacy' })).toBe(2);
    expect(resumeIndex({ steps: ['details', 'questionnaires'], currentSection: 'pharmacy' })).toBe(0);
  });
});
