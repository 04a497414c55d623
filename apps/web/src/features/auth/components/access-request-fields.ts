import {
  HEAR_ABOUT_US_SOURCES,
  LANGUAGE_PREFERENCES,
  PATIENT_CONTACT_METHODS,
  PATIENT_SERVICES,
  PATIENT_VOLUMES,
  PRACTICE_TYPES,
  PREFERRED_APPOINTMENT_TIMES,
  PROVIDER_CONTACT_METHODS,
  PROVIDER_INTERESTED_FEATURES,
  REFERRAL_SOURCES,
  SPECIALTIES,
  TECHNOLOGY_COMFORT_LEVELS,
  YEARS_OF_EXPERIENCE,
} from '@telehealth/shared';

export type FieldType = 'text' | 'email' | 'tel' | 'date' | 'textarea' | 'select' | 'multi' | 'zip';

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  /** The option set of a select or multi-select; labels come from `options.<name>.<value>`. */
  options?: readonly string[];
  /** Grid columns out of 12 on wide screens (12 when absent). */
  span?: number;
  autoComplete?: string;
}

export interface SectionSpec {
  key: string;
  fields: FieldSpec[];
}

/** The doctor form, in the order of the specification, grouped into sections. */
export const PROVIDER_SECTIONS: SectionSpec[] = [
  {
    key: 'personal',
    fields: [
      { name: 'firstName', type: 'text', required: true, span: 6, autoComplete: 'given-name' },
      { name: 'lastName', type: 'text', required: true, span: 6, autoComplete: 'family-name' },
      { name: 'email', type: 'email', required: true, span: 6, autoComplete: 'email' },
      { name: 'phone', type: 'tel', required: true, span: 6, autoComplete: 'tel' },
    ],
  },
  {
    key: 'credentials',
    fields: [
      { name: 'medicalLicense', type: 'text', required: true, span: 6 },
      { name: 'specialty', type: 'select', required: true, options: SPECIALTIES, span: 6 },
      { name: 'subSpecialty', type: 'text', span: 6 },
      { name: 'yearsOfExperience', type: 'select', required: true, options: YEARS_OF_EXPERIENCE, span: 6 },
      { name: 'boardCertifications', type: 'textarea' },
    ],
  },
  {
    key: 'practice',
    fields: [
      { name: 'practiceType', type: 'select', required: true, options: PRACTICE_TYPES, span: 6 },
      { name: 'organizationName', type: 'text', required: true, span: 6, autoComplete: 'organization' },
      { name: 'practiceAddress', type: 'text', autoComplete: 'street-address' },
      { name: 'practiceCity', type: 'text', span: 5, autoComplete: 'address-level2' },
      { name: 'practiceState', type: 'text', span: 3, autoComplete: 'address-level1' },
      { name: 'practiceZip', type: 'zip', span: 4, autoComplete: 'postal-code' },
    ],
  },
  {
    key: 'technology',
    fields: [
      { name: 'currentEMR', type: 'text', span: 6 },
      { name: 'patientVolume', type: 'select', options: PATIENT_VOLUMES, span: 6 },
      { name: 'telemedicineExperience', type: 'textarea' },
      { name: 'interestedFeatures', type: 'multi', options: PROVIDER_INTERESTED_FEATURES },
    ],
  },
  {
    key: 'additional',
    fields: [
      { name: 'referralSource', type: 'select', options: REFERRAL_SOURCES, span: 6 },
      { name: 'additionalInfo', type: 'textarea' },
    ],
  },
  {
    key: 'contact',
    fields: [
      { name: 'preferredContactMethod', type: 'select', options: PROVIDER_CONTACT_METHODS, span: 6 },
      { name: 'bestTimeToContact', type: 'text', span: 6 },
    ],
  },
];

/** The patient form, in the order of the specification (consent is rendered separately, last). */
export const PATIENT_SECTIONS: SectionSpec[] = [
  {
    key: 'personal',
    fields: [
      { name: 'firstName', type: 'text', required: true, span: 6, autoComplete: 'given-name' },
      { name: 'lastName', type: 'text', required: true, span: 6, autoComplete: 'family-name' },
      { name: 'dateOfBirth', type: 'date', required: true, span: 6, autoComplete: 'bday' },
      { name: 'phone', type: 'tel', required: true, span: 6, autoComplete: 'tel' },
      { name: 'email', type: 'email', required: true, autoComplete: 'email' },
      { name: 'address', type: 'text', autoComplete: 'street-address' },
      { name: 'city', type: 'text', span: 5, autoComplete: 'address-level2' },
      { name: 'state', type: 'text', span: 3, autoComplete: 'address-level1' },
      { name: 'zipCode', type: 'zip', span: 4, autoComplete: 'postal-code' },
    ],
  },
  {
    key: 'emergency',
    fields: [
      { name: 'emergencyContactName', type: 'text', span: 6 },
      { name: 'emergencyContactPhone', type: 'tel', span: 6 },
    ],
  },
  {
    key: 'care',
    fields: [
      { name: 'currentProvider', type: 'text', span: 6 },
      { name: 'providerPhone', type: 'tel', span: 6 },
      { name: 'referringDoctor', type: 'text', span: 6 },
      { name: 'insuranceProvider', type: 'text', span: 6 },
    ],
  },
  {
    key: 'health',
    fields: [
      { name: 'reasonForInterest', type: 'textarea', required: true },
      { name: 'currentConditions', type: 'textarea' },
      { name: 'currentMedications', type: 'textarea' },
      { name: 'allergies', type: 'textarea' },
    ],
  },
  {
    key: 'services',
    fields: [
      { name: 'servicesInterested', type: 'multi', options: PATIENT_SERVICES },
      { name: 'preferredAppointmentTimes', type: 'select', options: PREFERRED_APPOINTMENT_TIMES, span: 6 },
      { name: 'technologyComfort', type: 'select', options: TECHNOLOGY_COMFORT_LEVELS, span: 6 },
      { name: 'additionalQuestions', type: 'textarea' },
    ],
  },
  {
    key: 'contact',
    fields: [
      { name: 'hearAboutUs', type: 'select', options: HEAR_ABOUT_US_SOURCES, span: 6 },
      { name: 'preferredContactMethod', type: 'select', options: PATIENT_CONTACT_METHODS, span: 6 },
      { name: 'languagePreference', type: 'select', options: LANGUAGE_PREFERENCES, span: 6 },
    ],
  },
];
