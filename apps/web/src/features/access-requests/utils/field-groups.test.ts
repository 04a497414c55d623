import { describe, expect, it } from 'vitest';

import { groupFormFields, splitLinks } from './field-groups.ts';

const yesNo = { yes: 'Yes', no: 'No' };

describe('groupFormFields', () => {
  it('puts a patient form in labelled groups, keeps blank fields as null and joins lists', () => {
    const groups = groupFormFields(
      'patient',
      {
        email: 'a@b.test',
        phone: '555-0100',
        address: '  ',
        servicesInterested: ['therapy', 'medication'],
        consentToContact: true,
      },
      yesNo,
    );
    expect(groups.map((group) => group.key)).toEqual(['contact', 'care', 'preferences', 'other']);
    const contact = groups[0]?.rows ?? [];
    expect(contact[0]).toEqual({ field: 'email', label: 'Email', value: 'a@b.test' });
    expect(contact.find((row) => row.field === 'address')?.value).toBeNull();
    const care = groups[1]?.rows ?? [];
    expect(care.find((row) => row.field === 'servicesInterested')?.value).toBe('therapy, medication');
    expect(groups[2]?.rows.find((row) => row.field === 'consentToContact')?.value).toBe('Yes');
  });

  it('has no care group for a provider form', () => {
    const groups = groupFormFields('provider', { medicalLicense: 'MD-1', interestedFeatures: [] }, yesNo);
    expect(groups.map((group) => group.key)).toEqual(['contact', 'practice', 'preferences', 'other']);
    expect(groups[1]?.rows[0]).toEqual({ field: 'medicalLicense', label: 'Medical license number', value: 'MD-1' });
    expect(groups[2]?.rows[0]?.value).toBeNull();
  });
});

describe('splitLinks', () => {
  it('finds the links in a text', () => {
    expect(splitLinks('Open https://x.test/invite#abc now.\nThanks')).toEqual([
      { text: 'Open ' },
      { text: 'https://x.test/invite#abc', href: 'https://x.test/invite#abc' },
      { text: ' now.\nThanks' },
    ]);
    expect(splitLinks('no links')).toEqual([{ text: 'no links' }]);
  });
});
