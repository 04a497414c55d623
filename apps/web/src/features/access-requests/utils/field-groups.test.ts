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

  it('shows the labels of choices, not their stored codes, beside the field labels', () => {
    const provider = groupFormFields(
      'provider',
      {
        specialty: 'Psychiatry',
        yearsOfExperience: '11-15',
        practiceType: 'academic',
        patientVolume: '200+',
        interestedFeatures: ['Video Consultations', 'Clinical Notes'],
        referralSource: 'online',
        preferredContactMethod: 'either',
      },
      yesNo,
    );
    const providerRows = Object.fromEntries(provider.flatMap((group) => group.rows.map((row) => [row.field, row])));
    expect(providerRows['practiceType']).toEqual({
      field: 'practiceType',
      label: 'Practice type',
      value: 'Academic medical center',
    });
    expect(providerRows['yearsOfExperience']?.value).toBe('11-15 years');
    expect(providerRows['patientVolume']?.value).toBe('200+ patients');
    expect(providerRows['referralSource']).toMatchObject({ label: 'Referral source', value: 'Online search' });
    expect(providerRows['preferredContactMethod']?.value).toBe('Either');
    expect(providerRows['specialty']?.value).toBe('Psychiatry');
    expect(providerRows['interestedFeatures']?.value).toBe('Video Consultations, Clinical Notes');

    const patient = groupFormFields(
      'patient',
      {
        preferredAppointmentTimes: 'morning',
        technologyComfort: 'need-help',
        hearAboutUs: 'doctor-referral',
        preferredContactMethod: 'text',
        languagePreference: 'spanish',
        servicesInterested: ['ADHD Assessment'],
      },
      yesNo,
    );
    const patientRows = Object.fromEntries(patient.flatMap((group) => group.rows.map((row) => [row.field, row])));
    expect(patientRows['preferredAppointmentTimes']).toMatchObject({
      label: 'Preferred appointment times',
      value: 'Morning (8am-12pm)',
    });
    expect(patientRows['technologyComfort']?.value).toBe('I need help with technology');
    expect(patientRows['hearAboutUs']?.value).toBe('Doctor referral');
    expect(patientRows['preferredContactMethod']?.value).toBe('Text message');
    expect(patientRows['languagePreference']?.value).toBe('Spanish');
    expect(patientRows['servicesInterested']?.value).toBe('ADHD Assessment');
  });

  it('keeps a value it has no label for as it was stored, and free text untouched', () => {
    const groups = groupFormFields('patient', { hearAboutUs: 'radio', city: 'morning' }, yesNo);
    const rows = Object.fromEntries(groups.flatMap((group) => group.rows.map((row) => [row.field, row.value])));
    expect(rows['hearAboutUs']).toBe('radio');
    expect(rows['city']).toBe('morning');
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

describe('groupFormFields in another language', () => {
  it('asks for each field label and stored option by its key, with the English label as the fallback', () => {
    const asked: string[] = [];
    const groups = groupFormFields(
      'provider',
      { email: 'a@b.test', specialty: 'Psychiatry', interestedFeatures: ['Clinical Notes'], practiceType: 'new-kind' },
      { yes: 'Sí', no: 'No' },
      (key, english) => {
        asked.push(key);
        return key === 'labels.provider.specialty' || key === 'options.specialty.Psychiatry'
          ? `es:${english}`
          : english;
      },
    );
    const rows = Object.fromEntries(groups.flatMap((group) => group.rows.map((row) => [row.field, row])));
    expect(rows['specialty']).toEqual({ field: 'specialty', label: 'es:Specialty', value: 'es:Psychiatry' });
    expect(rows['practiceType']?.value).toBe('new-kind');
    expect(asked).toEqual(
      expect.arrayContaining([
        'labels.provider.email',
        'options.interestedFeatures.Clinical Notes',
        'options.practiceType.new-kind',
      ]),
    );
  });
});
