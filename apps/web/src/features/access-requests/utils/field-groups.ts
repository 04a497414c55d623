import {
  accessRequestOptionLabel,
  PATIENT_ACCESS_REQUEST_LABELS,
  PROVIDER_ACCESS_REQUEST_LABELS,
  type AccessRequestKind,
} from '@telehealth/shared';

export type FieldGroupKey = 'contact' | 'practice' | 'care' | 'preferences' | 'other';

export interface FieldRow {
  field: string;
  label: string;
  /** The value as text; null when the requester left it blank. */
  value: string | null;
}

export interface FieldGroup {
  key: FieldGroupKey;
  rows: FieldRow[];
}

const PROVIDER_GROUPS: Record<FieldGroupKey, readonly (keyof typeof PROVIDER_ACCESS_REQUEST_LABELS)[]> = {
  contact: ['email', 'phone', 'preferredContactMethod', 'bestTimeToContact'],
  practice: [
    'medicalLicense',
    'specialty',
    'subSpecialty',
    'yearsOfExperience',
    'boardCertifications',
    'practiceType',
    'organizationName',
    'practiceAddress',
    'practiceCity',
    'practiceState',
    'practiceZip',
    'currentEMR',
    'patientVolume',
    'telemedicineExperience',
  ],
  care: [],
  preferences: ['interestedFeatures'],
  other: ['referralSource', 'additionalInfo'],
};

const PATIENT_GROUPS: Record<FieldGroupKey, readonly (keyof typeof PATIENT_ACCESS_REQUEST_LABELS)[]> = {
  contact: [
    'email',
    'phone',
    'dateOfBirth',
    'address',
    'city',
    'state',
    'zipCode',
    'emergencyContactName',
    'emergencyContactPhone',
  ],
  practice: [],
  care: [
    'reasonForInterest',
    'currentProvider',
    'providerPhone',
    'referringDoctor',
    'insuranceProvider',
    'currentConditions',
    'currentMedications',
    'allergies',
    'servicesInterested',
  ],
  preferences: [
    'preferredAppointmentTimes',
    'technologyComfort',
    'preferredContactMethod',
    'languagePreference',
    'consentToContact',
  ],
  other: ['additionalQuestions', 'hearAboutUs'],
};

/** A stored value as text: choices by their labels, lists joined, yes or no for a flag; null when blank. */
function asText(value: unknown, label: (option: string) => string, yesNo: { yes: string; no: string }): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? yesNo.yes : yesNo.no;
  if (Array.isArray(value)) {
    const items = value.map((item) => String(item).trim()).filter((item) => item !== '');
    return items.length > 0 ? items.map(label).join(', ') : null;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  return text === '' ? null : label(text);
}

/**
 * A label in the reader's language: the key of the access-request form's own texts (`labels.patient.email`,
 * `options.specialty.Psychiatry`), and the English label of @telehealth/shared for when there is none.
 */
export type TranslateLabel = (key: string, english: string) => string;

const inEnglish: TranslateLabel = (_key, english) => english;

/**
 * Every field of a submitted form in labelled groups (field and option labels as the request form shows them),
 * in a reading order; empty groups are left out. Fields the requester left blank stay, with a null value.
 */
export function groupFormFields(
  kind: AccessRequestKind,
  form: Readonly<Record<string, unknown>>,
  yesNo: { yes: string; no: string },
  translate: TranslateLabel = inEnglish,
): FieldGroup[] {
  const groups: Record<FieldGroupKey, readonly string[]> = kind === 'provider' ? PROVIDER_GROUPS : PATIENT_GROUPS;
  const labels: Readonly<Record<string, string>> =
    kind === 'provider' ? PROVIDER_ACCESS_REQUEST_LABELS : PATIENT_ACCESS_REQUEST_LABELS;
  return (Object.keys(groups) as FieldGroupKey[])
    .map((key) => ({
      key,
      rows: groups[key].map((field) => ({
        field,
        label: translate(`labels.${kind}.${field}`, labels[field] ?? field),
        value: asText(
          form[field],
          (option) => translate(`options.${field}.${option}`, accessRequestOptionLabel(kind, field, option)),
          yesNo,
        ),
      })),
    }))
    .filter((group) => group.rows.length > 0);
}

/** Splits a text into plain parts and http(s) links, so a mail body can show its links as links. */
export function splitLinks(text: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = [];
  const pattern = /https?:\/\/[^\s<>"']+/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: match[0], href: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
